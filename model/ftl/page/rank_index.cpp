#include "model/ftl/page/rank_index.h"

#include <cassert>

namespace ssd::ftl {

void RankIndex::reset(uint32_t dies, uint32_t per_die) {
  per_die_ = dies ? per_die : 0;
  top_ = 1;
  while (top_ * 2 <= per_die_) top_ *= 2;
  tree_.assign(uint64_t(dies) * per_die_, 0);
  count_.assign(per_die_ ? dies : 0, 0);
}

void RankIndex::add(uint32_t block, int32_t delta) {
  const uint32_t die = block / per_die_;
  const uint64_t base = uint64_t(die) * per_die_ - 1;  // (tree_[base + p]: position p, 1-based)
  for (uint32_t p = block - die * per_die_ + 1; p <= per_die_; p += p & (0u - p)) tree_[base + p] += uint32_t(delta);
  count_[die] += uint32_t(delta);
}

uint32_t RankIndex::nth(uint32_t die, uint32_t k) const {
  assert(k < count_[die]);
  // Descend from the largest power of two: `pos` ends as the last position
  // whose prefix holds k marked blocks or fewer, so pos + 1 is the (k+1)-th.
  const uint64_t base = uint64_t(die) * per_die_ - 1;
  uint32_t pos = 0, left = k;
  for (uint32_t step = top_; step; step /= 2)
    if (pos + step <= per_die_ && tree_[base + pos + step] <= left) pos += step, left -= tree_[base + pos];
  return die * per_die_ + pos;  // (position pos + 1, block index pos)
}

}  // namespace ssd::ftl
