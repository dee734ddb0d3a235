#include "model/ftl/page/bucket_oldest.h"

#include <algorithm>

namespace ssd::ftl {

void BucketOldest::reset(uint32_t dies, uint32_t pages_per_block, const BigTable<uint64_t>* closed_at) {
  ppb_ = pages_per_block;
  closed_at_ = closed_at;
  meta_.assign(size_t(dies) * pages_per_block, Meta{});
  front_.assign(meta_.size() * kFront, kNone);
  words_ = (pages_per_block + 63) / 64;
  occupied_.assign(size_t(dies) * words_, 0);
}

uint32_t BucketOldest::next_occupied(uint32_t die, uint32_t valid) const {
  const uint64_t* const w = &occupied_[size_t(die) * words_];
  for (uint32_t k = valid / 64; k < words_; ++k) {
    const uint64_t bits = k == valid / 64 ? w[k] & (~uint64_t(0) << (valid % 64)) : w[k];
    if (bits) return std::min(ppb_, k * 64 + uint32_t(__builtin_ctzll(bits)));
  }
  return ppb_;
}

void BucketOldest::entered(uint32_t die, uint32_t valid, uint32_t block) {
  const size_t i = size_t(die) * ppb_ + valid;
  Meta& m = meta_[i];
  uint32_t* const f = &front_[i * kFront];
  occupied(die, valid, true);
  // Into the front if it holds every member and has room, or if the block
  // is older than the front's last; else it joins the members beyond.
  const bool room = m.complete && m.size < kFront;
  if (!room && !(m.size > 0 && older(valid, block, f[m.size - 1]))) {
    m.complete = false;
    return;
  }
  uint32_t k = m.size;
  if (k == kFront)  // full: its last is pushed out, beyond the front
    --k, m.complete = false;
  else
    ++m.size;
  for (; k > 0 && older(valid, block, f[k - 1]); --k) f[k] = f[k - 1];
  f[k] = block;
}

void BucketOldest::left(uint32_t die, uint32_t valid, uint32_t block) {
  const size_t i = size_t(die) * ppb_ + valid;
  Meta& m = meta_[i];
  uint32_t* const f = &front_[i * kFront];
  for (uint32_t k = 0; k < m.size; ++k)
    if (f[k] == block) {
      for (; k + 1 < m.size; ++k) f[k] = f[k + 1];
      if (--m.size == 0 && m.complete) occupied(die, valid, false);
      return;
    }
  // (Not in the front: it was beyond it, and the front stays the oldest.)
}

std::vector<uint32_t> BucketOldest::front(uint32_t die, uint32_t valid, bool& complete) const {
  const size_t i = size_t(die) * ppb_ + valid;
  complete = meta_[i].complete;
  return {front_.begin() + std::ptrdiff_t(i * kFront), front_.begin() + std::ptrdiff_t(i * kFront + meta_[i].size)};
}

}  // namespace ssd::ftl
