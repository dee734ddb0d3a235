// Preconditioning runs the FTLs functionally (FtlWork::record_ops false, no
// tracked content), where the block FTL's read-modify-write and the hybrid
// FTLs' merges count their copies instead of walking them page by page
// (BlockFtl::merge_counted, HybridFtl::copy_range). This checks that the
// short cut leaves exactly the state the walk leaves: two drives are given
// the same commands (fills, random writes, multi-page commands, TRIMs of
// single pages and of ranges), one functionally and one with its ops
// recorded, and their saved states (flash media and FTL, byte for byte) and
// statistics must agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "model/sim/random.h"
#include "tests/model/ftl/small_drive.h"

namespace ssd {
namespace functional_merge_test {

using ftl_test::Case;
using Drive = ftl_test::SmallDrive;

class FunctionalMerge : public ::testing::TestWithParam<Case> {};

TEST_P(FunctionalMerge, LeavesTheStateAndCountsOfTheMergesWalkedOpByOp) {
  Drive fast(GetParam(), true), walked(GetParam(), false);
  const uint64_t pages = fast.ftl->user_pages();
  uint64_t version = 0, next_write = UINT64_MAX;
  const auto command = [&](uint64_t first, uint64_t n) {
    n = std::min(n, pages - first);
    for (Drive* d : {&fast, &walked}) d->ftl->begin_command({ftl::HostRun::Op::Write, first, n, first == next_write});
    next_write = first + n;
    for (uint64_t l = first; l < first + n; ++l, ++version) fast.write(l, version), walked.write(l, version);
  };
  const auto trim = [&](uint64_t first, uint64_t n) {
    n = std::min(n, pages - first);
    for (Drive* d : {&fast, &walked}) d->ftl->begin_command({ftl::HostRun::Op::Trim, first, n, false});
    for (uint64_t l = first; l < first + n; ++l) fast.trim(l), walked.trim(l);
  };
  for (uint64_t l = 0; l < pages; l += 8) command(l, 8);  // a 32 KiB fill
  Random rng(2611);
  for (uint64_t i = 0; i < 3 * pages; ++i) {
    if (i % 97 == 0) trim(rng.below(pages), 1);                        // a page here and there
    if (i % 601 == 0) trim(rng.below(pages), 1 + rng.below(40));       // ranges: whole blocks freed
    if (i % 131 == 0) command(rng.below(pages), 1 + rng.below(24));  // multi-page commands
    else command(rng.below(pages), 1);                               // 4 KiB random writes
  }
  fast.ftl->check_consistency();
  walked.ftl->check_consistency();
  ftl_test::expect_same(fast, walked);
  EXPECT_GT(fast.ftl->stats().gc_pages_moved, 10 * pages);  // merges did copy: the short cut was taken
}

INSTANTIATE_TEST_SUITE_P(
    Ftls, FunctionalMerge,
    ::testing::Values(Case{"block", "block", {}},
                      Case{"block_buffered", "block", {{"ftl.block.buffer", 8}, {"ftl.block.buffer_blocks", 3}}},
                      Case{"block_striped_multiplane", "block",
                           {{"ftl.block.stripe", 4}, {"ftl.block.buffer", 8}, {"ftl.block.buffer_blocks", 8}}, 2},
                      Case{"bast", "bast", {}}, Case{"fast", "fast", {}},
                      Case{"bast_striped", "bast", {{"ftl.hybrid.stripe", 2}, {"ftl.log_blocks", 3}}},
                      Case{"fast_striped_interleaved", "fast",
                           {{"ftl.hybrid.stripe", 2}, {"ftl.hybrid.interleave", 1}, {"ftl.log_blocks", 5}}}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace functional_merge_test

}  // namespace ssd
