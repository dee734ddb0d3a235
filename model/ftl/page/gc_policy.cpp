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
    case GcPolicy::CostBenefit:  // ties keep the lowest block id (deterministic)
      for (size_t i = 1; i < candidates.size(); ++i)
        if (cost_benefit_order(now - closed_at[candidates[i]], valid[i], now - closed_at[candidates[best]], valid[best],
                               ppb_) > 0)
          best = i;
      break;
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

int VictimPicker::cost_benefit_order(uint64_t age_a, uint32_t valid_a, uint64_t age_b, uint32_t valid_b,
                                     uint32_t pages_per_block) {
  // An empty block scores infinite: free space at no cost.
  if (valid_a == 0 || valid_b == 0) return (valid_a == 0) - (valid_b == 0);
  // (age_a + 1) (P - valid_a) / 2 valid_a against the same of b, both sides
  // times 2 valid_a valid_b.
  using Wide = unsigned __int128;
  const Wide a = (Wide(age_a) + 1) * (pages_per_block - valid_a) * valid_b;
  const Wide b = (Wide(age_b) + 1) * (pages_per_block - valid_b) * valid_a;
  return (a > b) - (a < b);
}

}  // namespace ssd::ftl
