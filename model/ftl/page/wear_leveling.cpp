#include "model/ftl/page/wear_leveling.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::ftl {

WearLeveler::WearLeveler(const FlashMedia& media, bool dynamic, uint32_t threshold)
    : media_(media), geo_(media.geometry()), dynamic_(dynamic), threshold_(threshold),
      max_(geo_.dies(), 0), min_(geo_.dies(), 0), free_counts_(dynamic ? geo_.dies() : 0) {
  for (uint32_t b = 0; b < geo_.blocks(); ++b) {  // a media that was already in use
    const uint32_t d = b / geo_.blocks_per_die();
    max_[d] = std::max(max_[d], count(b));
  }
}

uint32_t WearLeveler::take_free(uint32_t die, std::deque<uint32_t>& free_blocks) {
  // The first free block of the lowest count among them: the one a pass
  // over all of them would pick (fewest erases, the longest-free on ties).
  auto lowest = free_counts_[die].begin();
  if (lowest == free_counts_[die].end()) throw std::logic_error("wear levelling: no free block counted");
  auto at = std::find_if(free_blocks.begin(), free_blocks.end(), [&](uint32_t b) { return count(b) == lowest->first; });
  if (at == free_blocks.end()) throw std::logic_error("wear levelling: the free blocks' erase counts are off");
  const uint32_t block = *at;
  free_blocks.erase(at);
  if (--lowest->second == 0) free_counts_[die].erase(lowest);
  return block;
}

void WearLeveler::count_free(uint32_t die, const std::deque<uint32_t>& free_blocks) {
  free_counts_[die].clear();
  for (uint32_t b : free_blocks) freed(die, b);
}

bool WearLeveler::erased(uint32_t die, uint32_t block) {
  counts_[die].set(block - die * geo_.blocks_per_die(), count(block));
  if (count(block) > max_[die]) max_[die] = count(block);
  if (max_[die] - min_[die] <= threshold_) return false;
  // Counts only grow, so min_ stays a lower bound; refresh it.
  min_[die] = counts_[die].least();
  return max_[die] - min_[die] > threshold_;
}

uint32_t WearLeveler::pick_cold(uint32_t die) const {
  const uint32_t i = closed_[die].first_least();
  if (i == MinTree::kNone) return UINT32_MAX;
  const uint32_t best = die * geo_.blocks_per_die() + i;
  if (max_[die] - count(best) <= threshold_) return UINT32_MAX;
  return best;
}

}  // namespace ssd::ftl
