#include "model/ftl/page/gc_policy.h"

#include <stdexcept>

namespace ssd::ftl {

namespace {
constexpr const char* kNames[] = {"greedy", "cost-benefit", "fifo", "random", "d-choice"};
}

GcPolicy parse_gc_policy(const std::string& name) {
  for (uint8_t i = 0; i < 5; ++i)
    if (name == kNames[i]) return GcPolicy(i);
  throw std::invalid_argument("unknown GC policy '" + name + "' (known: " + kGcPolicyChoices + ")");
}

const char* gc_policy_name(GcPolicy p) { return kNames[uint8_t(p)]; }

VictimPicker::VictimPicker(GcPolicy policy, uint32_t d, uint32_t pages_per_block, uint64_t seed)
    : policy_(policy), d_(d), ppb_(pages_per_block), rng_(seed ^ 0x474376696374696dull) {}

uint32_t VictimPicker::pick(const std::vector<uint32_t>& candidates, const std::vector<uint16_t>& valid,
                            const BigTable<uint64_t>& closed_at, uint64_t now) {
  size_t best = 0;  // an index into candidates (and valid)
  switch (policy_) {
    case GcPolicy::Greedy:  // (the FTL's buckets do this in O(1); kept for completeness)
      for (size_t i = 0; i < candidates.size(); ++i)
        if (valid[i] < valid[best]) best = i;
      break;
    case GcPolicy::CostBenefit: {
      // long double: a 64-bit age times a page count stays exact enough to
      // rank blocks; ties keep the lowest block id (deterministic).
      auto score = [&](size_t i) -> long double {
        if (valid[i] == 0) return 1e300L;  // nothing to copy: free space at no cost
        const long double age = (long double)(now - closed_at[candidates[i]]) + 1.0L;  // +1: a block closed just now still counts
        return age * (long double)(ppb_ - valid[i]) / (2.0L * (long double)valid[i]);
      };
      long double best_score = score(best);
      for (size_t i = 0; i < candidates.size(); ++i) {
        const long double s = score(i);
        if (s > best_score) best = i, best_score = s;
      }
      break;
    }
    case GcPolicy::Fifo:
      for (size_t i = 0; i < candidates.size(); ++i)
        if (closed_at[candidates[i]] < closed_at[candidates[best]]) best = i;
      break;
    case GcPolicy::Random:
    case GcPolicy::DChoice:
      best = draw(candidates.size(), [&valid](size_t i) { return valid[i]; });
      break;
  }
  return candidates[best];
}

}  // namespace ssd::ftl
