#include "model/controller/compression.h"

#include <algorithm>

namespace ssd {

CompressedLayout::CompressedLayout(uint32_t page_size, uint32_t pages_per_block, uint32_t compressed)
    : on_(compressed > 0 && compressed < page_size), page_(page_size), compressed_(compressed),
      pages_(pages_per_block),
      slots_(on_ ? uint32_t(uint64_t(pages_per_block) * page_size / compressed) : pages_per_block) {}

uint32_t CompressedLayout::completes(uint32_t slot, uint32_t* first) const {
  // Slot j holds bytes [j c, (j + 1) c) of the block's stream; flash page q
  // holds [q p, (q + 1) p) and is complete once its last byte is written.
  const uint64_t begin = slot * compressed_, end = begin + compressed_;
  const uint64_t before = begin / page_;  // pages complete before this slot
  uint64_t after = end / page_;           // pages complete after it
  if (slot + 1 == slots_ && end % page_ != 0) ++after;  // the block's last slot flushes the partial page
  after = std::min<uint64_t>(after, pages_);
  *first = uint32_t(before);
  return uint32_t(after > before ? after - before : 0);
}

uint32_t CompressedLayout::spans(uint32_t slot, Span out[2]) const {
  const uint64_t begin = slot * compressed_, end = begin + compressed_;
  const uint64_t q = begin / page_, boundary = (q + 1) * page_;
  if (end <= boundary) {
    out[0] = {uint32_t(q), uint32_t(compressed_)};
    return 1;
  }
  out[0] = {uint32_t(q), uint32_t(boundary - begin)};
  out[1] = {uint32_t(q + 1), uint32_t(end - boundary)};
  return 2;
}

uint32_t CompressedLayout::completing_slot(uint32_t page) const {
  // The first slot whose end reaches the page's end; past the last slot,
  // the last slot (it flushes the partial page).
  const uint64_t need = (uint64_t(page) + 1) * page_;
  const uint64_t slot = (need + compressed_ - 1) / compressed_ - 1;
  return uint32_t(std::min<uint64_t>(slot, slots_ - 1));
}

}  // namespace ssd
