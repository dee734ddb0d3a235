#pragma once
// The functional state of the NAND array, kept apart from its timing: which
// pages are programmed, the erase-before-write and in-order-program rules,
// erase counts, and (optionally) what each page holds so tests can check
// that every read returns the latest written data. Plain C++, no SystemC.

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "model/ftl/big_table.h"
#include "model/ftl/checkpoint.h"
#include "model/nand/geometry.h"

namespace ssd {

// What a page holds when content tracking is on: whose data and which version.
struct PageContent {
  uint32_t lpn = UINT32_MAX;
  uint64_t version = 0;
};

// A broken flash rule is a firmware bug, never a user error.
struct FlashRuleViolation : std::logic_error {
  using std::logic_error::logic_error;
};

class FlashMedia {
 public:
  FlashMedia(const FlashGeometry& g, bool track_content);

  // Program page `page` of block `b`: it must be the block's next erased page.
  // (Inline, its error out of line: GC calls it for every page it moves.)
  void program(BlockId b, uint32_t page, PageContent c) {
    if (page != write_ptr_[b.v]) out_of_order(b, page);
    ++write_ptr_[b.v];
    if (!content_.empty()) content_[uint64_t(b.v) * geometry_.pages_per_block + page] = c;
  }
  // Program the next `n` pages of block `b` at once, holding no tracked
  // content: a functional copy of many pages (a block FTL's merge while
  // preconditioning) in one step. Only while content tracking is off.
  void program_untracked(BlockId b, uint32_t n);
  bool tracks_content() const { return !content_.empty(); }
  // A hint: block `b` will be programmed (or, with `erasing`, erased) soon;
  // no effect on state.
  void prefetch(BlockId b, bool erasing) const {
    __builtin_prefetch(&write_ptr_[b.v]);
    if (erasing) __builtin_prefetch(&erase_count_[b.v]);
  }
  // Read a programmed page.
  PageContent read(BlockId b, uint32_t page) const {
    if (page >= write_ptr_[b.v]) erased_read(b, page);
    return content_.empty() ? PageContent{} : content_[uint64_t(b.v) * geometry_.pages_per_block + page];
  }
  PageContent read(Ppn p) const { return read(geometry_.block_of(p), geometry_.page_in_block(p)); }
  void erase(BlockId b);

  bool is_programmed(Ppn p) const { return geometry_.page_in_block(p) < write_ptr_[geometry_.block_of(p).v]; }
  // The FTL changes the array as it plans a piece of work, and the
  // controller times the work's commands afterwards: a read or program the
  // FTL planned before erasing its block in the same work must see the block
  // as it was then. So, once keep_erased_fill() is called, an erase keeps
  // the block's fill (programmed pages), and a page keeps what it was last
  // programmed with (content tracking) until it is programmed again.
  void keep_erased_fill() { erased_fill_.assign(write_ptr_.size(), 0); }
  uint32_t fill_before_erase(BlockId b) const { return erased_fill_[b.v]; }
  PageContent last_programmed(Ppn p) const { return content_.empty() ? PageContent{} : content_[p.v]; }
  uint32_t erase_count(BlockId b) const { return erase_count_[b.v]; }
  const FlashGeometry& geometry() const { return geometry_; }
  // Save or load the array's state (write pointers, wear, contents).
  void checkpoint(Checkpoint& c);

 private:
  // The errors of program() and read() (a broken flash rule): they throw.
  [[noreturn]] __attribute__((noinline, cold)) void out_of_order(BlockId b, uint32_t page) const;
  [[noreturn]] __attribute__((noinline, cold)) void erased_read(BlockId b, uint32_t page) const;

  FlashGeometry geometry_;
  // (Per block, looked up at random: huge pages, big_table.h.)
  ftl::BigTable<uint32_t> write_ptr_;   // next programmable page per block
  ftl::BigTable<uint32_t> erase_count_;
  std::vector<uint32_t> erased_fill_;   // per block, its fill when last erased (empty unless kept)
  std::vector<PageContent> content_;    // empty unless tracking content
};

}  // namespace ssd
