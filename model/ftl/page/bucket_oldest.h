#pragma once
// The oldest blocks of each valid-count bucket of each die, kept for the
// cost-benefit GC policy (gc_policy.h).
//
// Why: cost-benefit takes the closed block with the largest
// age x (1 - u) / 2u. Among the blocks of one valid count the oldest scores
// highest (ties: the lowest id), so the die's best block is the best of the
// buckets' oldest ones, and an empty block wins at once (ties: the lowest
// id). A pick then looks at one block per valid count instead of every
// block of the die: with 4-page blocks GC picks about once a write, and the
// `used` state of 8 dies of 4096 such blocks took 14.5 s listing them,
// 0.24 s with this index (greedy: 0.07 s).
//
// Kept in part. Each bucket keeps its kFront oldest members in order (its
// front), and whether the front holds all of them (complete). A block
// entering the bucket takes its place in the front if it is older than the
// front's last (which may push that one out); a block leaving is taken out
// if it is there. Only when the front has emptied while members remain
// outside it is the bucket walked, to find its kFront oldest again. So a
// walk comes at most once per kFront blocks taken from the front, and a
// block moving between buckets (one invalidation) costs a look at two
// fronts, whatever the die's size. Memory: about 66 bytes per valid count
// per die (32 dies of 256-page blocks: 0.5 MiB; 128 dies of 4096-page
// blocks, the most pages a block may have: 33 MiB).
//
// In bucket 0 (blocks with nothing valid) the order is by id alone: the
// order of cost-benefit's tie-break among blocks of infinite score.

#include <cstdint>
#include <vector>

#include "model/ftl/big_table.h"

namespace ssd::ftl {

class BucketOldest {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr uint32_t kFront = 16;  // oldest members kept per bucket
  // `dies` dies of valid counts 0 .. pages_per_block - 1 (the reclaimable
  // ones), every bucket empty; `closed_at` (per block, kept by the FTL)
  // orders the blocks. 0 dies: not kept (empty()).
  void reset(uint32_t dies, uint32_t pages_per_block, const BigTable<uint64_t>* closed_at);
  bool empty() const { return meta_.empty(); }
  // `block` has entered (left) the die's bucket of `valid` pages.
  void entered(uint32_t die, uint32_t valid, uint32_t block);
  void left(uint32_t die, uint32_t valid, uint32_t block);
  // The oldest block of the bucket (kNone: empty). `each(f)` calls f(block)
  // for every member of the bucket: it is called when the front has to be
  // found again.
  template <typename Each>
  uint32_t oldest(uint32_t die, uint32_t valid, Each each) {
    const size_t i = size_t(die) * ppb_ + valid;
    if (meta_[i].size == 0 && !meta_[i].complete) {  // members may remain, none known: walk them
      meta_[i].complete = true;                      // (an empty front that holds them all, so far)
      each([&](uint32_t b) { entered(die, valid, b); });
      if (meta_[i].size == 0) occupied(die, valid, false);  // (the last one beyond had left)
    }
    return meta_[i].size ? front_[i * kFront] : kNone;
  }
  // The lowest valid count >= `valid` whose bucket on `die` may have
  // members (pages_per_block if none): a pick passes over empty buckets a
  // word of them at a time, which matters when a die has fewer blocks than
  // a block has pages.
  uint32_t next_occupied(uint32_t die, uint32_t valid) const;
  // The front as kept, without a walk, and whether it holds every member
  // (for the FTL's consistency check).
  std::vector<uint32_t> front(uint32_t die, uint32_t valid, bool& complete) const;
  // Whether `a` goes before `b` in bucket `valid`: closed earlier, then the
  // lower id; by id alone in bucket 0.
  bool older(uint32_t valid, uint32_t a, uint32_t b) const {
    if (valid == 0) return a < b;
    const uint64_t ta = (*closed_at_)[a], tb = (*closed_at_)[b];
    return ta < tb || (ta == tb && a < b);
  }

 private:
  struct Meta {
    uint8_t size = 0;      // blocks in the front
    bool complete = true;  // the front holds every member of the bucket
  };
  void occupied(uint32_t die, uint32_t valid, bool on) {
    uint64_t& w = occupied_[size_t(die) * words_ + valid / 64];
    const uint64_t bit = uint64_t(1) << (valid % 64);
    w = on ? w | bit : w & ~bit;
  }
  uint32_t ppb_ = 0, words_ = 0;
  const BigTable<uint64_t>* closed_at_ = nullptr;
  std::vector<uint64_t> occupied_;  // [die * words_ + valid / 64]: bit valid % 64 set if the bucket may have members
  std::vector<Meta> meta_;       // [die * ppb_ + valid]
  std::vector<uint32_t> front_;  // [(die * ppb_ + valid) * kFront + k]: the bucket's k-th oldest
};

}  // namespace ssd::ftl
