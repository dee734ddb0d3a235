// FTL plug-in tests: plain C++, no SystemC time.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <vector>

#include "model/nand/flash_media.h"
#include "model/ftl/ftl.h"
#include "tests/model/ftl/reference_gc.h"
#include "model/sim/random.h"

namespace ssd {
namespace page_ftl_test {

FlashGeometry geometry(uint32_t channels, uint32_t dies_per_channel, uint32_t blocks, uint32_t pages) {
  FlashGeometry g;
  g.channels = channels;
  g.dies_per_channel = dies_per_channel;
  g.planes_per_die = 1;
  g.blocks_per_plane = blocks;
  g.pages_per_block = pages;
  g.page_size = 4096;
  return g;
}

FlashGeometry small_geometry() { return geometry(2, 2, 64, 32); }

std::unique_ptr<ftl::Ftl> make_ftl(const FlashGeometry& g, double op, FlashMedia& media) {
  ftl::FtlParams p;
  p.geometry = g;
  p.over_provisioning = op;
  p.gc_threshold = 2;
  return ftl::FtlRegistry::instance().create("page", p, media);
}

TEST(PageFtl, UserCapacityLeavesTheSpareArea) {
  const FlashGeometry g = small_geometry();
  FlashMedia media(g, false);
  auto f = make_ftl(g, 0.25, media);
  // 4 dies x 64 blocks x 32 pages = 8192 raw pages; 8192 / 1.25 = 6553.6.
  EXPECT_EQ(f->user_pages(), 6553u);
}

TEST(PageFtl, SequentialWritesStripeAcrossChannelsThenDies) {
  const FlashGeometry g = small_geometry();
  FlashMedia media(g, false);
  auto f = make_ftl(g, 0.25, media);
  ftl::FtlWork w;
  for (uint32_t l = 0; l < 8; ++l) f->write(Lpn(l), l, w);
  for (uint32_t l = 0; l < 8; ++l) {
    const DieId d = g.die_of(f->lookup(Lpn(l)));
    EXPECT_EQ(g.channel_of(d).v, l % 2) << "lpn " << l;
    EXPECT_EQ(d.v, l % 4) << "lpn " << l;
  }
}

TEST(PageFtl, ReadOfUnwrittenPageTouchesNoFlash) {
  const FlashGeometry g = small_geometry();
  FlashMedia media(g, false);
  auto f = make_ftl(g, 0.25, media);
  ftl::FtlWork w;
  f->read(Lpn(5), w);
  EXPECT_TRUE(w.ops.empty());
  EXPECT_EQ(f->stats().unmapped_reads, 1u);
  f->write(Lpn(5), 1, w);
  w.clear();
  f->read(Lpn(5), w);
  ASSERT_EQ(w.ops.size(), 1u);
  EXPECT_EQ(w.ops[0].kind, ftl::FlashOp::Kind::Read);
  EXPECT_EQ(w.ops[0].ppn, f->lookup(Lpn(5)));
}

// The shadow map: every read must find the version last written, through GC
// and TRIM, over a million random operations; the media refuses any program
// of a non-erased page and any out-of-order program.
TEST(PageFtl, ShadowMapSurvivesGcAndTrim) {
  const FlashGeometry g = small_geometry();
  FlashMedia media(g, /*track_content=*/true);
  auto f = make_ftl(g, 0.10, media);
  const uint64_t n = f->user_pages();
  std::vector<uint64_t> shadow(n, 0);  // 0: unmapped
  Random rng(42);
  ftl::FtlWork w;
  uint64_t version = 0, reads_checked = 0;
  for (int i = 0; i < 1000000; ++i) {
    const uint32_t lpn = uint32_t(rng.below(n));
    const uint32_t dice = rng.percent();
    w.clear();
    if (dice < 60) {
      f->write(Lpn(lpn), ++version, w);
      shadow[lpn] = version;
    } else if (dice < 70) {
      f->trim(Lpn(lpn), w);
      shadow[lpn] = 0;
      EXPECT_FALSE(f->lookup(Lpn(lpn)).valid());
    } else {
      f->read(Lpn(lpn), w);
      if (shadow[lpn] == 0) {
        ASSERT_TRUE(w.ops.empty());
      } else {
        ASSERT_EQ(w.ops.size(), 1u);
        const PageContent c = media.read(w.ops[0].ppn);
        ASSERT_EQ(c.lpn, lpn) << "op " << i;
        ASSERT_EQ(c.version, shadow[lpn]) << "op " << i;
        ++reads_checked;
      }
    }
    if (i % 100000 == 0) f->check_consistency();
  }
  f->check_consistency();
  EXPECT_GT(f->stats().gc_runs, 1000u);  // GC really ran
  EXPECT_GT(f->stats().trimmed_pages, 10000u);
  EXPECT_GT(reads_checked, 100000u);
  // Every LPN still reads back its newest version.
  for (uint32_t l = 0; l < n; ++l) {
    const Ppn p = f->lookup(Lpn(l));
    ASSERT_EQ(p.valid(), shadow[l] != 0);
    if (p.valid()) {
      ASSERT_EQ(media.read(p).version, shadow[l]);
    }
  }
}

TEST(PageFtl, GcOpsAreOrderedReadBeforeProgramEraseLast) {
  const FlashGeometry g = small_geometry();
  FlashMedia media(g, false);
  auto f = make_ftl(g, 0.10, media);
  ftl::FtlWork w;
  Random rng(7);
  const uint64_t n = f->user_pages();
  for (uint64_t l = 0; l < n; ++l) w.clear(), f->write(Lpn(uint32_t(l)), 1, w);
  bool saw_gc = false;
  for (int i = 0; i < 20000 && !saw_gc; ++i) {
    w.clear();
    f->write(Lpn(uint32_t(rng.below(n))), 2, w);
    if (w.ops.size() < 2) continue;
    saw_gc = true;
    for (size_t k = 0; k + 1 < w.ops.size(); ++k) {
      const auto& op = w.ops[k];
      EXPECT_TRUE(op.gc);
      if (op.kind == ftl::FlashOp::Kind::Program) {
        ASSERT_GE(op.after, 0);
        EXPECT_EQ(w.ops[size_t(op.after)].kind, ftl::FlashOp::Kind::Read);
      }
      if (op.kind == ftl::FlashOp::Kind::Erase) {
        EXPECT_TRUE(op.barrier);
      }
    }
    EXPECT_FALSE(w.ops.back().gc);
    EXPECT_EQ(w.ops.back().kind, ftl::FlashOp::Kind::Program);
    EXPECT_TRUE(w.ops.back().barrier);  // the host page waits for its GC
  }
  EXPECT_TRUE(saw_gc);
}

// The independent greedy-GC reference (tests/model/ftl/reference_gc.h).
double reference_greedy_wa(uint64_t blocks, uint32_t ppb, uint64_t user_pages, uint64_t writes, uint64_t warmup,
                           uint64_t seed) {
  return reftest::reference_wa(reftest::Ref::Greedy, blocks, ppb, user_pages, writes, warmup, seed);
}

double plugin_wa(const FlashGeometry& g, double op, uint64_t writes, uint64_t warmup, uint64_t seed) {
  FlashMedia media(g, false);
  auto f = make_ftl(g, op, media);
  ftl::FtlWork w;
  const uint64_t n = f->user_pages();
  for (uint64_t l = 0; l < n; ++l) w.clear(), f->write(Lpn(uint32_t(l)), 0, w);
  Random rng(seed);
  for (uint64_t i = 0; i < warmup; ++i) w.clear(), f->write(Lpn(uint32_t(rng.below(n))), 0, w);
  f->reset_stats();
  for (uint64_t i = 0; i < writes; ++i) w.clear(), f->write(Lpn(uint32_t(rng.below(n))), 0, w);
  f->check_consistency();
  return f->stats().write_amplification();
}

class GreedyWa : public testing::TestWithParam<double> {};

TEST_P(GreedyWa, MatchesIndependentReferenceWithinTenPercent) {
  const double op = GetParam();
  // Two large dies: the plug-in's per-die reserve (free-block threshold and
  // two open blocks) is then a negligible share of the spare, as on a drive.
  const FlashGeometry g = geometry(2, 1, 1024, 32);
  const uint64_t user = ftl::user_pages_for(g, op);
  const uint64_t warmup = 4 * user, writes = 4 * user;
  const double wa = plugin_wa(g, op, writes, warmup, 11);
  const double ref = reference_greedy_wa(g.blocks(), g.pages_per_block, user, writes, warmup, 12);
  RecordProperty("wa", std::to_string(wa));
  RecordProperty("reference", std::to_string(ref));
  EXPECT_NEAR(wa, ref, 0.10 * ref) << "op " << op;
  EXPECT_GT(wa, 1.2);  // GC really moved data
}

INSTANTIATE_TEST_SUITE_P(SpareArea, GreedyWa, testing::Values(0.07, 0.25));

// Incremental GC: in steady state no single host write pays for more than
// one victim's worth of moves, and on average it pays WA - 1 of them.
TEST(PageFtl, GcIsSlicedAcrossHostWrites) {
  const FlashGeometry g = geometry(2, 1, 512, 64);
  FlashMedia media(g, false);
  auto f = make_ftl(g, 0.07, media);
  ftl::FtlWork w;
  const uint64_t n = f->user_pages();
  Random rng(3);
  for (uint64_t l = 0; l < n; ++l) w.clear(), f->write(Lpn(uint32_t(l)), 0, w);
  for (uint64_t i = 0; i < 3 * n; ++i) w.clear(), f->write(Lpn(uint32_t(rng.below(n))), 0, w);
  f->reset_stats();
  size_t max_moves = 0, total_moves = 0;
  const uint64_t writes = n;
  for (uint64_t i = 0; i < writes; ++i) {
    w.clear();
    f->write(Lpn(uint32_t(rng.below(n))), 0, w);
    size_t moves = 0;
    for (const auto& op : w.ops) moves += op.gc && op.kind == ftl::FlashOp::Kind::Program;
    max_moves = std::max(max_moves, moves);
    total_moves += moves;
  }
  EXPECT_LT(max_moves, g.pages_per_block);
  EXPECT_GT(max_moves, 0u);
  EXPECT_NEAR(double(total_moves) / double(writes), f->stats().write_amplification() - 1.0, 1e-9);
  f->check_consistency();
}

}  // namespace page_ftl_test

}  // namespace ssd
