// The packing of compressed host pages (slots) into a block's flash pages
// (model/controller/compression.h), checked against a byte-by-byte
// reference: every flash page is programmed exactly once, by the first slot
// that reaches its end (the block's last slot flushes a partly filled page),
// and each slot reads exactly the flash pages its bytes lie in.
#include <gtest/gtest.h>

#include <vector>

#include "model/controller/compression.h"

namespace compression_layout_test {

TEST(CompressedLayout, EveryFlashPageProgrammedOnceWhenItsLastByteIsWritten) {
  for (const uint32_t c : {1u, 100u, 1024u, 2048u, 2868u, 3072u, 4095u}) {
    const uint32_t page = 4096, pages = 8;
    const ssd::CompressedLayout l(page, pages, c);
    ASSERT_TRUE(l.enabled());
    const uint32_t slots = uint32_t(uint64_t(pages) * page / c);
    ASSERT_EQ(l.slots_per_block(), slots) << c;
    const uint64_t used = uint64_t(slots) * c;  // bytes of the block that hold data
    std::vector<int> programmed(pages, 0);
    for (uint32_t s = 0; s < slots; ++s) {
      uint32_t first = 0;
      const uint32_t n = l.completes(s, &first);
      for (uint32_t q = first; q < first + n; ++q) {
        ASSERT_LT(q, pages);
        ++programmed[q];
        // Reference: the page holds data and slot s is the first to write its last byte (or the block's last).
        const uint64_t last_byte = std::min<uint64_t>((uint64_t(q) + 1) * page, used) - 1;
        EXPECT_EQ(last_byte / c, s) << "c " << c << " page " << q;
        EXPECT_EQ(l.completing_slot(q), s) << "c " << c << " page " << q;
      }
      ssd::CompressedLayout::Span span[2];
      const uint32_t k = l.spans(s, span);
      uint64_t bytes = 0;
      for (uint32_t i = 0; i < k; ++i) {
        EXPECT_EQ(span[i].page, (uint64_t(s) * c + bytes) / page) << "c " << c << " slot " << s;
        bytes += span[i].bytes;
      }
      EXPECT_EQ(bytes, c);
      EXPECT_EQ(span[k - 1].page, (uint64_t(s) * c + c - 1) / page);
    }
    for (uint32_t q = 0; q < pages; ++q) EXPECT_EQ(programmed[q], q * uint64_t(page) < used ? 1 : 0) << c << " " << q;
  }
}

TEST(CompressedLayout, WholePagesAreOff) {
  EXPECT_FALSE(ssd::CompressedLayout(4096, 64, 4096).enabled());
  EXPECT_FALSE(ssd::CompressedLayout(4096, 64, 0).enabled());
  EXPECT_EQ(ssd::CompressedLayout(4096, 64, 0).slots_per_block(), 64u);
}

}  // namespace compression_layout_test

