#pragma once
// Victim selection for the page FTL's garbage collector (`ftl.gc.policy`).
//
// greedy       the closed block with the fewest valid pages. The FTL finds it
//              in O(1) through its buckets by valid count and never asks this
//              picker (today's default, kept on its fast path).
// cost-benefit Rosenblum & Ousterhout / Kawaguchi: the largest
//              age x (1 - u) / 2u, u the block's valid fraction and age the
//              pages programmed on the drive since the block was closed (a
//              sequence number, no wall clock), plus one: old, mostly invalid
//              blocks first; an empty block (u = 0) at once. Scores are
//              compared exactly, in integers (cost_benefit_order()).
// fifo         the block closed longest ago (a circular log).
// random       a block drawn uniformly.
// d-choice     d blocks drawn uniformly (with replacement), the one with the
//              fewest valid pages of them (d = 1: random; d large: greedy).
//
// Every policy chooses among the die's closed blocks that hold an invalid
// page: a fully valid block gives nothing back, and the FTL's die-capacity
// rule (page_ftl.cpp) guarantees such a block exists when GC needs one.
// Random and d-choice draw from a generator seeded from --seed, so runs are
// reproducible.

#include <cstdint>
#include <string>
#include <vector>

#include "model/ftl/big_table.h"
#include "model/sim/random.h"

namespace ssd::ftl {

enum class GcPolicy : uint8_t { Greedy, CostBenefit, Fifo, Random, DChoice };

// The option's choice list, and the policy named by one of its entries
// (std::invalid_argument otherwise).
constexpr const char* kGcPolicyChoices = "greedy|cost-benefit|fifo|random|d-choice";
GcPolicy parse_gc_policy(const std::string& name);
const char* gc_policy_name(GcPolicy p);

class VictimPicker {
 public:
  VictimPicker(GcPolicy policy, uint32_t d, uint32_t pages_per_block, uint64_t seed);
  GcPolicy policy() const { return policy_; }
  // One of `candidates` (closed blocks of one die with an invalid page, in
  // block order; never empty); valid[i] is the valid-page count of
  // candidates[i]; `closed_at` is indexed by block; `now` is the sequence
  // number of the next page program. The policy's definition over listed
  // blocks: the page FTL finds the same victim through an index kept per
  // policy (page_ftl.h), and its tests check it against this.
  uint32_t pick(const std::vector<uint32_t>& candidates, const std::vector<uint16_t>& valid,
                const BigTable<uint64_t>& closed_at, uint64_t now);
  // Random and d-choice only: the rank of the victim among `n` candidates
  // (n > 0) in block order, valid_at(k) giving the valid pages of the one of
  // rank k. The same draws as pick() over the listed candidates, for a
  // caller that finds a candidate by its rank without listing them all
  // (the page FTL's RankIndex).
  template <typename ValidAt>
  size_t draw(size_t n, ValidAt valid_at) {
    size_t best = rng_.below(n);
    if (policy_ == GcPolicy::DChoice) {
      uint16_t best_valid = valid_at(best);
      for (uint32_t k = 1; k < d_; ++k) {
        const size_t i = rng_.below(n);
        const uint16_t v = valid_at(i);
        if (v < best_valid) best = i, best_valid = v;
      }
    }
    return best;
  }
  // Cost-benefit's order of two blocks of `valid_a` and `valid_b` valid
  // pages (of pages_per_block), closed `age_a` and `age_b` pages ago: +1 if
  // a scores higher, -1 if b does, 0 if they tie. Exact, by cross-
  // multiplying in 128 bits ((age + 1) < 2^65 times two page counts < 2^16
  // each), where a floating-point score would round: the same order on
  // every machine, however old the blocks.
  static int cost_benefit_order(uint64_t age_a, uint32_t valid_a, uint64_t age_b, uint32_t valid_b,
                                uint32_t pages_per_block);
  // Whether draw() serves this policy.
  bool draws() const { return policy_ == GcPolicy::Random || policy_ == GcPolicy::DChoice; }

 private:
  // (Saved whole in a drive state: the padding is spelled out, zero, so
  // that the same drive saves the same bytes. The layout is the one the
  // saved-state format has always had.)
  GcPolicy policy_;
  uint8_t pad0_[3] = {0, 0, 0};
  uint32_t d_, ppb_;
  uint32_t pad1_ = 0;
  Random rng_;
};
static_assert(sizeof(VictimPicker) == 16 + sizeof(Random), "the saved layout of a victim picker");

}  // namespace ssd::ftl
