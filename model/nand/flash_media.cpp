#include "model/nand/flash_media.h"

#include <string>

namespace ssd {

FlashMedia::FlashMedia(const FlashGeometry& g, bool track_content)
    : geometry_(g), write_ptr_(g.blocks(), 0), erase_count_(g.blocks(), 0) {
  if (track_content) content_.resize(g.pages());
}

void FlashMedia::out_of_order(BlockId b, uint32_t page) const {
  throw FlashRuleViolation("program of page " + std::to_string(page) + " in block " + std::to_string(b.v) +
                           " out of order (next erased page is " + std::to_string(write_ptr_[b.v]) + ")");
}

void FlashMedia::program_untracked(BlockId b, uint32_t n) {
  if (!content_.empty()) throw FlashRuleViolation("untracked program of block " + std::to_string(b.v) + " while content is tracked");
  if (n > geometry_.pages_per_block - write_ptr_[b.v])
    throw FlashRuleViolation("program of " + std::to_string(n) + " pages in block " + std::to_string(b.v) +
                             " past its last page (next erased page is " + std::to_string(write_ptr_[b.v]) + ")");
  write_ptr_[b.v] += n;
}

void FlashMedia::erased_read(BlockId b, uint32_t page) const {
  throw FlashRuleViolation("read of erased page " + std::to_string(page) + " of block " + std::to_string(b.v));
}

void FlashMedia::checkpoint(Checkpoint& c) {
  c.section("flash media");
  c.table(write_ptr_, "blocks");
  c.table(erase_count_, "blocks");
  // A page's content as saved: PageContent's padding spelled out as zero
  // (the bytes are the file's; the layout is the one it always had).
  struct Saved {
    uint32_t lpn, zero;
    uint64_t version;
  };
  static_assert(sizeof(Saved) == sizeof(PageContent), "the saved layout of a page's content");
  std::vector<Saved> saved(content_.size());
  for (size_t i = 0; i < content_.size(); ++i) saved[i] = {content_[i].lpn, 0, content_[i].version};
  c.table(saved, "pages with tracked contents (check.content)");
  for (size_t i = 0; i < content_.size(); ++i) content_[i] = {saved[i].lpn, saved[i].version};
  if (c.loading())
    for (uint32_t w : write_ptr_)
      if (w > geometry_.pages_per_block) c.fail("a block written past its last page");
}

void FlashMedia::erase(BlockId b) {
  if (!erased_fill_.empty()) erased_fill_[b.v] = write_ptr_[b.v];
  write_ptr_[b.v] = 0;
  ++erase_count_[b.v];
}

}  // namespace ssd
