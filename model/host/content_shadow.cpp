#include "model/host/content_shadow.h"

#include <string>

namespace ssd {

void ContentShadow::wrote(uint64_t offset, uint64_t bytes, uint64_t tag) {
  if (bytes == 0) return;
  for (uint64_t l = offset / page_size_; l <= (offset + bytes - 1) / page_size_; ++l) tag_[l] = tag;
}

void ContentShadow::trimmed(uint64_t offset, uint64_t bytes) {
  if (bytes == 0) return;
  // Whole pages only, as the drive unmaps them.
  const uint64_t first = (offset + page_size_ - 1) / page_size_, end = (offset + bytes) / page_size_;
  for (uint64_t l = first; l < end; ++l) tag_[l] = 0;
}

void ContentShadow::check_read(uint64_t offset, uint64_t bytes, const std::vector<ssdtlm::PageData>& found) {
  if (bytes == 0) return;
  const uint64_t first = offset / page_size_, last = (offset + bytes - 1) / page_size_;
  if (found.size() != last - first + 1)
    throw ContentMismatch("content check: a read of LPNs " + std::to_string(first) + "-" + std::to_string(last) +
                          " returned " + std::to_string(found.size()) + " pages");
  for (uint64_t l = first; l <= last; ++l) {
    const ssdtlm::PageData& got = found[l - first];
    const uint64_t want = tag_[l];
    const bool ok = want == 0 ? !got.mapped() : (got.lpn == l && got.tag == want);
    if (!ok)
      throw ContentMismatch(
          "content check: read of LPN " + std::to_string(l) + " expected " +
          (want ? "version " + std::to_string(want) : std::string("unmapped (never written or trimmed)")) +
          ", found " +
          (got.mapped() ? "LPN " + std::to_string(got.lpn) + " version " + std::to_string(got.tag)
                        : std::string("unmapped")));
    ++checked_;
  }
}

}  // namespace ssd
