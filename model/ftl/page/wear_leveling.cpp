#include "model/ftl/page/wear_leveling.h"

namespace ssd::ftl {

WearLeveler::WearLeveler(const FlashMedia& media, bool dynamic, uint32_t threshold)
    : media_(media), geo_(media.geometry()), dynamic_(dynamic), threshold_(threshold),
      max_(geo_.dies(), 0), min_(geo_.dies(), 0) {
  for (uint32_t b = 0; b < geo_.blocks(); ++b) {  // a media that was already in use
    const uint32_t d = b / geo_.blocks_per_die();
    max_[d] = std::max(max_[d], count(b));
  }
}

size_t WearLeveler::pick_free(const std::deque<uint32_t>& free_blocks) const {
  size_t best = 0;
  for (size_t i = 1; i < free_blocks.size(); ++i)
    if (count(free_blocks[i]) < count(free_blocks[best])) best = i;
  return best;
}

bool WearLeveler::erased(uint32_t die, uint32_t block) {
  if (count(block) > max_[die]) max_[die] = count(block);
  if (max_[die] - min_[die] <= threshold_) return false;
  // Counts only grow, so min_ stays a lower bound; refresh it.
  const uint32_t first = die * geo_.blocks_per_die();
  uint32_t least = UINT32_MAX;
  for (uint32_t b = first; b < first + geo_.blocks_per_die(); ++b) least = std::min(least, count(b));
  min_[die] = least;
  return max_[die] - least > threshold_;
}

uint32_t WearLeveler::pick_cold(uint32_t die, const std::vector<uint32_t>& closed) {
  uint32_t best = UINT32_MAX;
  for (uint32_t b : closed)
    if (best == UINT32_MAX || count(b) < count(best)) best = b;
  if (best == UINT32_MAX || max_[die] - count(best) <= threshold_) return UINT32_MAX;
  return best;
}

}  // namespace ssd::ftl
