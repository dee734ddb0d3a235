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
                            const std::vector<uint64_t>& closed_at, uint64_t now) {
  uint32_t best = candidates.front();
  switch (policy_) {
    case GcPolicy::Greedy:  // (the FTL's buckets do this in O(1); kept for completeness)
      for (uint32_t b : candidates)
        if (valid[b] < valid[best]) best = b;
      break;
    case GcPolicy::CostBenefit: {
      // long double: a 64-bit age times a page count stays exact enough to
      // rank blocks; ties keep the lowest block id (deterministic).
      auto score = [&](uint32_t b) -> long double {
        if (valid[b] == 0) return 1e300L;  // nothing to copy: free space at no cost
        const long double age = (long double)(now - closed_at[b]) + 1.0L;  // +1: a block closed just now still counts
        return age * (long double)(ppb_ - valid[b]) / (2.0L * (long double)valid[b]);
      };
      long double best_score = score(best);
      for (uint32_t b : candidates) {
        const long double s = score(b);
        if (s > best_score) best = b, best_score = s;
      }
      break;
    }
    case GcPolicy::Fifo:
      for (uint32_t b : candidates)
        if (closed_at[b] < closed_at[best]) best = b;
      break;
    case GcPolicy::Random:
      best = candidates[rng_.below(candidates.size())];
      break;
    case GcPolicy::DChoice:
      best = candidates[rng_.below(candidates.size())];
      for (uint32_t i = 1; i < d_; ++i) {
        const uint32_t b = candidates[rng_.below(candidates.size())];
        if (valid[b] < valid[best]) best = b;
      }
      break;
  }
  return best;
}

}  // namespace ssd::ftl
