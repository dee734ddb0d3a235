// Dynamic wear levelling's choice of a free block (model/ftl/page/
// wear_leveling.h) through its count of the free blocks' erase counts,
// against a pass over all of them: the first of the fewest erases, in the
// free list's order.
#include <gtest/gtest.h>

#include <deque>

#include "model/ftl/page/wear_leveling.h"
#include "model/sim/random.h"
#include "small_drive.h"

namespace ssd::ftl {
namespace wear_leveling_test {

TEST(DynamicWearLevelling, TakesTheFreeBlockAPassOverAllWouldPick) {
  const FlashGeometry geo = ftl_test::small_geometry();
  FlashMedia media(geo, false);
  WearLeveler wl(media, /*dynamic=*/true, 0);
  const uint32_t die = 1, first = die * geo.blocks_per_die(), n = geo.blocks_per_die();
  Random rng(31);
  std::deque<uint32_t> free_blocks;
  // Few distinct counts, so that ties (the longest-free wins) are common.
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t b = first + uint32_t(rng.below(n));
    for (uint64_t k = rng.below(3); k > 0; --k) media.erase(BlockId(b));
  }
  for (uint32_t i = 0; i < n; i += 2) free_blocks.push_back(first + i);
  wl.count_free(die, free_blocks);
  std::deque<uint32_t> in_use;
  for (uint32_t i = 1; i < n; i += 2) in_use.push_back(first + i);
  for (int step = 0; step < 3000; ++step) {
    if (!free_blocks.empty() && (in_use.empty() || rng.below(2))) {  // open one
      size_t want = 0;
      for (size_t i = 1; i < free_blocks.size(); ++i)
        if (media.erase_count(BlockId(free_blocks[i])) < media.erase_count(BlockId(free_blocks[want]))) want = i;
      const uint32_t expected = free_blocks[want];
      const size_t before = free_blocks.size();
      ASSERT_EQ(wl.take_free(die, free_blocks), expected) << "step " << step;
      ASSERT_EQ(free_blocks.size(), before - 1);
      in_use.push_back(expected);
    } else {  // a block in use is erased and freed
      const size_t i = size_t(rng.below(in_use.size()));
      const uint32_t b = in_use[i];
      in_use.erase(in_use.begin() + std::ptrdiff_t(i));
      media.erase(BlockId(b));
      free_blocks.push_back(b);
      wl.freed(die, b);
    }
  }
}

}  // namespace wear_leveling_test
}  // namespace ssd::ftl
