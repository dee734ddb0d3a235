#pragma once
// `--check.content`: the host's own record of what it wrote, kept apart from
// everything the drive knows, so that every host read can be checked
// end to end. Each write command carries a fresh data tag; the drive stores
// (LPN, tag) in the flash page (or the write cache) and a read returns what
// it found for each logical page. The shadow knows, per logical page, the tag
// of the last write the host issued to it (0: never written, or trimmed), so
// a read that returns another LPN's page, an older version, or data for a
// trimmed page is caught on the spot.
//
// The unit is the drive's mapping unit (a flash page): a write touching part
// of a page rewrites the whole page (read-modify-write), so the page carries
// the tag of the last write that touched it; only whole pages are trimmed.

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "model/ftl/checkpoint.h"

#include "tlm/ssd_protocol.h"

namespace ssd {

// A read returned other data than the host last wrote: a model bug (exit 3).
struct ContentMismatch : std::logic_error {
  using std::logic_error::logic_error;
};

class ContentShadow {
 public:
  ContentShadow(uint64_t logical_pages, uint32_t page_size) : tag_(logical_pages, 0), page_size_(page_size) {}

  // A fresh tag for the next write (never 0).
  uint64_t next_tag() { return ++last_tag_; }
  // The host wrote [offset, offset + bytes) with `tag`.
  void wrote(uint64_t offset, uint64_t bytes, uint64_t tag);
  void wrote_page(uint64_t lpn, uint64_t tag) { tag_[lpn] = tag; }
  // The host trimmed [offset, offset + bytes): whole pages read as unmapped.
  void trimmed(uint64_t offset, uint64_t bytes);
  // Check what a read of [offset, offset + bytes) returned, one entry per
  // page in LPN order; throws ContentMismatch naming the first bad page.
  void check_read(uint64_t offset, uint64_t bytes, const std::vector<ssdtlm::PageData>& found);
  uint64_t pages_checked() const { return checked_; }
  // Save or load what every logical page last had written (--save-state).
  void checkpoint(Checkpoint& c) {
    c.section("host content shadow");
    c.table(tag_, "logical pages");
    c.value(last_tag_);
  }
  // Per logical page, the tag of the last write issued (0: none).
  const std::vector<uint64_t>& tags() const { return tag_; }

 private:
  std::vector<uint64_t> tag_;  // per logical page: last tag written, 0 = none
  uint32_t page_size_;
  uint64_t last_tag_ = 0;
  uint64_t checked_ = 0;
};

}  // namespace ssd
