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
#include <sstream>
#include <string>
#include <vector>

#include "model/ftl/ftl.h"
#include "model/nand/flash_media.h"
#include "model/sim/random.h"

namespace ssd {
namespace {

struct Case {
  std::string name;  // for the test's name
  std::string ftl;
  std::vector<std::pair<std::string, double>> options;
  uint32_t die_pages = 1;
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

// 2 channels x 2 dies x 2 planes x 24 blocks x 16 pages, 25 % spare.
FlashGeometry geometry() {
  FlashGeometry g;
  g.channels = 2, g.dies_per_channel = 2, g.planes_per_die = 2, g.blocks_per_plane = 24, g.pages_per_block = 16;
  return g;
}

ftl::FtlParams params(const Case& c) {
  ftl::FtlParams p;
  p.geometry = geometry();
  p.over_provisioning = 0.25;
  p.die_pages = c.die_pages;
  p.seed = 7;
  for (const ftl::FtlOptionSpec& spec : ftl::FtlRegistry::instance().entries().at(c.ftl).options)
    if (spec.unit == "bool")
      p.options.number[spec.key] = spec.fallback == "true";
    else
      p.options.number[spec.key] = std::stod(spec.fallback);  // the block and hybrid FTLs' are counts
  for (const auto& [key, value] : c.options) p.options.number[key] = value;
  return p;
}

// One drive: its flash, its FTL, and how it runs them.
struct Drive {
  Drive(const Case& c, bool functional) : media(geometry(), /*track_content=*/false) {
    ftl = ftl::FtlRegistry::instance().create(c.ftl, params(c), media);
    work.record_ops = !functional;
  }
  void write(uint64_t lpn, uint64_t version) {
    work.clear();
    ftl->write(Lpn(uint32_t(lpn)), version, work);
  }
  void trim(uint64_t lpn) {
    work.clear();
    ftl->trim(Lpn(uint32_t(lpn)), work);
  }
  std::string saved() {
    std::ostringstream out;
    Checkpoint c(out, "memory");
    media.checkpoint(c);
    EXPECT_TRUE(ftl->checkpoint(c));
    return out.str();
  }
  FlashMedia media;
  std::unique_ptr<ftl::Ftl> ftl;
  ftl::FtlWork work;
};

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
  const std::string a_state = fast.saved(), b_state = walked.saved();
  ASSERT_EQ(a_state.size(), b_state.size());
  const auto differ = std::mismatch(a_state.begin(), a_state.end(), b_state.begin()).first;
  EXPECT_TRUE(differ == a_state.end()) << "saved states differ from byte " << differ - a_state.begin() << " of "
                                       << a_state.size();
  const ftl::FtlStats &a = fast.ftl->stats(), &b = walked.ftl->stats();
  EXPECT_EQ(a.host_pages_written, b.host_pages_written);
  EXPECT_EQ(a.flash_pages_written, b.flash_pages_written);
  EXPECT_EQ(a.gc_runs, b.gc_runs);
  EXPECT_EQ(a.gc_pages_moved, b.gc_pages_moved);
  EXPECT_EQ(a.trimmed_pages, b.trimmed_pages);
  EXPECT_GT(a.gc_pages_moved, 10 * pages);  // merges did copy: the short cut was taken
  const std::vector<ftl::FtlStat> x = fast.ftl->extra_stats(), y = walked.ftl->extra_stats();
  ASSERT_EQ(x.size(), y.size());
  for (size_t k = 0; k < x.size(); ++k) EXPECT_EQ(x[k].value, y[k].value) << x[k].name;
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

}  // namespace
}  // namespace ssd
