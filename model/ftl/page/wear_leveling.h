#pragma once
// Wear levelling for the page FTL (`ftl.wl.*`), per die (blocks never leave
// their die, so the spread that matters is within one).
//
// Dynamic (`ftl.wl.dynamic`): a die opens the free block with the lowest
// erase count (the longest-free one on ties) instead of the longest-free one.
// Blocks being written are then evened out, but a block holding data that is
// never rewritten is never erased, so it stays behind. The free blocks' erase
// counts are kept counted per die, so the look for the block stops at the
// first free block of the lowest count (the longest-free of them): with
// 4-page blocks a die opens a block every few writes, and looking at every
// free block each time made `used` of 8 dies of 4096 blocks take 1.8 s
// (0.10 s now, as greedy without it).
//
// Static (`ftl.wl.threshold` = T > 0): when a die's erase-count spread (most
// worn block less least worn) exceeds T, the FTL moves the valid data of its
// least-worn closed block (cold data pins it) to its GC block and erases it,
// so the block returns to circulation and the cold data now rests on a block
// that was in use. Checked after every erase on the die; one block moves per
// check (the move's own erase checks again). Each die's erase counts, and
// those of its closed blocks, are kept in a tournament tree (min_tree.h), so
// the check and the pick take a few steps, not a pass over the die's blocks
// (with 4-page blocks a die erases every few writes: `used`, twice
// overwritten, of 8 dies of 4096 blocks with T = 4 took 0.60 s against 0.03
// with T = 16, which seldom checks; 0.03 s now).

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "model/ftl/page/min_tree.h"
#include "model/nand/flash_media.h"

namespace ssd::ftl {

class WearLeveler {
 public:
  WearLeveler(const FlashMedia& media, bool dynamic, uint32_t threshold);
  bool dynamic() const { return dynamic_; }
  bool static_on() const { return threshold_ > 0; }

  // Dynamic: the block to open next, taken out of `free_blocks` (the free
  // blocks of `die`, longest-free first; not empty).
  uint32_t take_free(uint32_t die, std::deque<uint32_t>& free_blocks);
  // Dynamic: `block` (erased) has joined the die's free blocks.
  void freed(uint32_t die, uint32_t block) { ++free_counts_[die][count(block)]; }
  // Dynamic: count the die's free blocks afresh (once they were set whole:
  // a new drive, a loaded state, a modelled steady state).
  void count_free(uint32_t die, const std::deque<uint32_t>& free_blocks);

  // Static: `block` of `die` was erased; true when the die's spread may now
  // exceed the threshold (then ask pick_cold). The least erase count is kept
  // as a lower bound (in the saved state) and refreshed only when it might
  // matter.
  bool erased(uint32_t die, uint32_t block);
  // Static: `block` was closed (`in`) or stopped being closed (it became a
  // GC or wear-levelling victim).
  void closed(uint32_t die, uint32_t block, bool in) {
    if (static_on()) closed_[die].set(block - die * geo_.blocks_per_die(), in ? count(block) : MinTree::kNone);
  }
  // Static: the die's least-worn closed block (the first by number on ties)
  // to move, or UINT32_MAX when none is or the die's spread is within the
  // threshold.
  uint32_t pick_cold(uint32_t die) const;
  // Static: index the erase counts afresh, `is_closed(block)` telling the
  // closed blocks (once the blocks were set whole: a new drive, a loaded
  // state, a modelled steady state).
  template <typename IsClosed>
  void index(IsClosed is_closed) {
    if (!static_on()) return;
    counts_.assign(geo_.dies(), {});
    closed_.assign(geo_.dies(), {});
    for (uint32_t d = 0; d < geo_.dies(); ++d) {
      counts_[d].reset(geo_.blocks_per_die());
      closed_[d].reset(geo_.blocks_per_die());
      for (uint32_t i = 0, b = d * geo_.blocks_per_die(); i < geo_.blocks_per_die(); ++i, ++b) {
        counts_[d].set(i, count(b));
        if (is_closed(b)) closed_[d].set(i, count(b));
      }
    }
  }
  // Static: the indexes agree with the media and `is_closed` (for the FTL's
  // consistency check): null, or what disagrees first.
  template <typename IsClosed>
  const char* check(IsClosed is_closed) const {
    if (!static_on()) return nullptr;
    for (uint32_t d = 0; d < geo_.dies(); ++d)
      for (uint32_t i = 0, b = d * geo_.blocks_per_die(); i < geo_.blocks_per_die(); ++i, ++b) {
        if (counts_[d].value(i) != count(b)) return "a block's erase count in the wear-levelling index";
        if (closed_[d].value(i) != (is_closed(b) ? count(b) : MinTree::kNone)) return "the wear-levelling index of closed blocks";
      }
    return nullptr;
  }

  // Statistics.
  uint64_t moves = 0, pages_moved = 0;
  void checkpoint(Checkpoint& c) {
    c.value(moves);
    c.value(pages_moved);
    c.table(max_, "dies (wear levelling)");
    c.table(min_, "dies (wear levelling)");
  }

 private:
  uint32_t count(uint32_t block) const { return media_.erase_count(BlockId(block)); }
  const FlashMedia& media_;
  const FlashGeometry& geo_;
  bool dynamic_;
  uint32_t threshold_;
  std::vector<uint32_t> max_, min_;  // per die: most erases, a lower bound of the fewest
  std::vector<std::map<uint32_t, uint32_t>> free_counts_;  // per die: erase count -> free blocks with it (dynamic)
  // Static, per die, by block of the die: every block's erase count, and
  // the closed blocks' (kNone for the others).
  std::vector<MinTree> counts_, closed_;
};

}  // namespace ssd::ftl
