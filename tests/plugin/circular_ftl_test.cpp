// The example plug-in's policy, driven directly through the FTL interface
// after loading it (plugin_main.cpp): GC takes the oldest block even when a
// younger one would free more (FIFO, not greedy), idle GC stops at a tail
// block that would free nothing, and a bad value of its option is refused
// naming the option (an exception crossing from the plug-in into ssdsim).
//
// One die, 16 blocks of 4 pages, 50 % spare: 42 user pages (64 / 1.5), so
// 11 user blocks and 5 spare. Writes fill blocks 0, 1, 2, ... in order; GC
// keeps gc_threshold = 2 blocks free.
#include <gtest/gtest.h>

#include <vector>

#include "model/ftl/ftl.h"

namespace ssd {
namespace circular_ftl_test {

using ftl::FlashOp;

constexpr uint32_t kBlocks = 16, kPages = 4, kReserve = 2;

ftl::FtlParams params(double idle_free) {
  ftl::FtlParams p;
  p.geometry.channels = p.geometry.dies_per_channel = p.geometry.planes_per_die = 1;
  p.geometry.blocks_per_plane = kBlocks;
  p.geometry.pages_per_block = kPages;
  p.over_provisioning = 0.5;
  p.gc_threshold = kReserve;
  p.options.number["ftl.circular_idle_free"] = idle_free;
  return p;
}

// LPNs 0..39 fill blocks 0-9; then LPN 0 (block 0 keeps 3 valid pages) and
// LPNs 4-7 (block 1 keeps none) are rewritten, LPNs 40, 41 written, and LPN
// 41 rewritten until `writes` pages in all: blocks open while more than the
// reserve are free, so (16 - 2) * 4 = 56 pages fit before GC.
void fill(ftl::Ftl& f, uint32_t writes) {
  ftl::FtlWork w;
  std::vector<uint32_t> lpns;
  for (uint32_t l = 0; l < 40; ++l) lpns.push_back(l);
  for (uint32_t l : {0u, 4u, 5u, 6u, 7u, 40u}) lpns.push_back(l);
  while (lpns.size() < writes) lpns.push_back(41);
  uint64_t version = 0;
  for (uint32_t l : lpns) {
    w.clear();
    f.write(Lpn(l), ++version, w);
    ASSERT_EQ(w.ops.size(), 1u) << "GC before " << (kBlocks - kReserve) * kPages << " pages";
  }
}

double stat(const ftl::Ftl& f, const std::string& name) {
  for (const ftl::FtlStat& s : f.extra_stats())
    if (s.name == name) return s.value;
  ADD_FAILURE() << "no stat " << name;
  return -1;
}

TEST(CircularPlugin, GcTakesTheOldestBlockNotTheEmptiest) {
  FlashMedia media(params(0).geometry, true);
  auto f = ftl::FtlRegistry::instance().create("circular", params(0), media);
  ASSERT_EQ(f->user_pages(), 42u);
  const uint32_t before_gc = (kBlocks - kReserve) * kPages;
  fill(*f, before_gc);
  // The next write needs a block with only the reserve free: GC takes block
  // 0 (3 valid pages: LPNs 1-3, copied to block 14), which leaves the
  // reserve, then block 1 (nothing valid), then the host page goes to block 14.
  ftl::FtlWork w;
  f->write(Lpn(41), 1000, w);
  const uint32_t head = 14 * kPages;
  std::vector<FlashOp> expect;
  for (uint32_t i = 0; i < 3; ++i) {
    expect.push_back({FlashOp::Kind::Read, Ppn(1 + i), true});
    expect.push_back({FlashOp::Kind::Program, Ppn(head + i), true, int32_t(2 * i)});
  }
  expect.push_back({FlashOp::Kind::Erase, Ppn(0), true, -1, true});
  expect.push_back({FlashOp::Kind::Erase, Ppn(kPages), true, -1, true});
  expect.push_back({FlashOp::Kind::Program, Ppn(head + 3), false, -1, true});
  ASSERT_EQ(w.ops.size(), expect.size());
  for (size_t i = 0; i < expect.size(); ++i) {
    SCOPED_TRACE("op " + std::to_string(i));
    EXPECT_EQ(w.ops[i].kind, expect[i].kind);
    EXPECT_EQ(w.ops[i].ppn, expect[i].ppn);
    EXPECT_EQ(w.ops[i].gc, expect[i].gc);
    EXPECT_EQ(w.ops[i].after, expect[i].after);
    EXPECT_EQ(w.ops[i].barrier, expect[i].barrier);
  }
  EXPECT_EQ(f->stats().gc_runs, 2u);
  EXPECT_EQ(f->stats().gc_pages_moved, 3u);
  EXPECT_EQ(stat(*f, "fifo_full_victims"), 0);
  for (uint32_t l = 1; l <= 3; ++l) EXPECT_EQ(f->lookup(Lpn(l)), Ppn(head + l - 1));
  EXPECT_EQ(media.erase_count(BlockId(0)), 1u);
  EXPECT_EQ(media.erase_count(BlockId(1)), 1u);
  EXPECT_NO_THROW(f->check_consistency());
}

TEST(CircularPlugin, IdleGcStopsAtATailBlockThatWouldFreeNothing) {
  FlashMedia media(params(4).geometry, true);
  auto f = ftl::FtlRegistry::instance().create("circular", params(4), media);
  fill(*f, (kBlocks - kReserve) * kPages);  // 2 free blocks, below the idle target of 4
  ftl::FtlWork w;
  ASSERT_TRUE(f->background(w));  // block 0: 3 pages moved
  EXPECT_EQ(f->stats().gc_pages_moved, 3u);
  w.clear();
  ASSERT_TRUE(f->background(w));  // block 1: nothing to move
  ASSERT_EQ(w.ops.size(), 1u);
  EXPECT_EQ(w.ops[0].kind, FlashOp::Kind::Erase);
  EXPECT_EQ(w.ops[0].ppn, Ppn(kPages));
  w.clear();
  // 3 free blocks now (one went to the copies), still below 4, but the tail,
  // block 2, holds LPNs 8-11, all valid: nothing to gain.
  EXPECT_FALSE(f->background(w));
  EXPECT_TRUE(w.ops.empty());
  EXPECT_EQ(f->stats().gc_runs, 2u);
  EXPECT_EQ(stat(*f, "idle_gc_runs"), 2);
  EXPECT_NO_THROW(f->check_consistency());
  f->reset_stats();
  EXPECT_EQ(stat(*f, "idle_gc_runs"), 0);
}

// A target the user gave above the spare is refused; the default, above
// the spare of a small drive, is cut to it.
TEST(CircularPlugin, IdleTargetAboveTheSpareIsRefusedNamingTheOption) {
  ftl::FtlParams given = params(6);  // 5 spare blocks
  given.options.user_set.insert("ftl.circular_idle_free");
  FlashMedia media(given.geometry, false);
  try {
    ftl::FtlRegistry::instance().create("circular", given, media);
    FAIL() << "accepted ftl.circular_idle_free = 6";
  } catch (const ftl::FtlConfigError& e) {
    EXPECT_EQ(e.key, "ftl.circular_idle_free");
  }
  given.options.number["ftl.circular_idle_free"] = 5;
  FlashMedia ok(given.geometry, false);
  EXPECT_NO_THROW(ftl::FtlRegistry::instance().create("circular", given, ok));
  FlashMedia by_default(params(6).geometry, false);
  EXPECT_NO_THROW(ftl::FtlRegistry::instance().create("circular", params(6), by_default));
}

}  // namespace circular_ftl_test

}  // namespace ssd
