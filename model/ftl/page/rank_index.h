#pragma once
// Each die's marked blocks, counted in block order, so that the k-th of them
// is found without listing them: a Fenwick tree per die.
//
// Why: the random and d-choice GC policies draw their victims by rank among
// the die's reclaimable blocks (closed, with an invalid page), in block
// order. Listing those blocks at every pick costs a pass over the die; with
// small blocks GC picks about once a write: the `used` state of 8 dies of
// 4096 four-page blocks took 18.1 s with random victims listed, 0.07 s with
// greedy's buckets, 0.15 s with this index. The page FTL marks and unmarks a
// block as it enters and leaves its valid-count buckets (or gets its first
// invalid page); a draw is then O(log blocks) and picks the same block the
// list would have given.

#include <cstdint>
#include <vector>

namespace ssd::ftl {

class RankIndex {
 public:
  // `dies` dies of `per_die` blocks each (drive-wide ids die * per_die + i),
  // none marked; 0 dies: not kept (empty()).
  void reset(uint32_t dies, uint32_t per_die);
  bool empty() const { return count_.empty(); }
  // Mark (+1) or unmark (-1) a block that is not (is) marked.
  void add(uint32_t block, int32_t delta);
  // Marked blocks on `die`.
  uint32_t count(uint32_t die) const { return count_[die]; }
  // The drive-wide id of the die's marked block of rank k (0: the lowest
  // id); k < count(die).
  uint32_t nth(uint32_t die, uint32_t k) const;

 private:
  uint32_t per_die_ = 0;
  uint32_t top_ = 0;            // the highest power of two <= per_die_ (where a descent starts)
  std::vector<uint32_t> tree_;  // die d's tree position p (1-based) at [d * per_die_ + p - 1]
  std::vector<uint32_t> count_;
};

}  // namespace ssd::ftl
