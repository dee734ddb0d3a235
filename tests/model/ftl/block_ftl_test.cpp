// Block-mapped FTL (JMF602 class): the flash work of appends, whole-block
// read-modify-writes, write-buffer coalescing and TRIM counted op by op in
// plain C++, and the idle-drive latency of a random 4 KiB write (one block
// RMW) and of sequential 4 KiB writes, exact to the nanosecond, computed
// here from the drive's parameters. (The shadow-map test covers `block` too.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <vector>

#include "model/ftl/ftl.h"
#include "model/host/io_source.h"
#include "model/nand/flash_media.h"
#include "model/sim/random.h"
#include "tests/model/ftl/block_rig.h"
#include "tests/model/timed_source.h"
#include "tests/model/timing_drive.h"

namespace ssd {
namespace block_ftl_test {

using namespace block_test;

TEST(BlockFtl, RandomWriteToFullLogicalBlockCostsOneBlockRmw) {
  FlashMedia media(geometry(), /*track_content=*/true);
  auto f = make(media);
  fill(*f, 5);
  const Ppn old = f->lookup(Lpn(lpn(5, 0)));
  ftl::FtlWork w;
  f->begin_command({ftl::HostRun::Op::Write, lpn(5, 7), 1, false});
  f->write(Lpn(lpn(5, 7)), 7, w);  // lands in the SRAM buffer: no flash work
  EXPECT_TRUE(w.ops.empty());
  expect_reads(*f, media, lpn(5, 7), 7);  // served from the buffer
  EXPECT_EQ(stat(*f, "buffer_hits"), 1);
  w.clear();
  f->begin_command({ftl::HostRun::Op::Write, lpn(9, 3), 1, false});
  f->write(Lpn(lpn(9, 3)), 9, w);  // another logical block: the buffer is flushed
  // The page at offset 7 is not the next page of the (full) copy: the other
  // ppb - 1 pages are read and programmed with it into a new block, and the
  // old block is erased.
  const Count c = count(w);
  EXPECT_EQ(c.reads, kPpb - 1);
  EXPECT_EQ(c.programs, kPpb);
  EXPECT_EQ(c.gc_programs, kPpb - 1);
  EXPECT_EQ(c.erases, 1u);
  const FlashGeometry g = geometry();
  const Ppn now = f->lookup(Lpn(lpn(5, 0)));
  EXPECT_NE(g.block_of(now), g.block_of(old));
  EXPECT_EQ(g.die_of(now).v, 5 % kDies);  // the new copy stays on its die
  // One chain on the die, in page order: each copy's read, then its
  // program; the host page after the copies before it; the erase last.
  uint32_t next_page = 0;
  for (size_t i = 0; i < w.ops.size(); ++i) {
    const FlashOp& op = w.ops[i];
    EXPECT_EQ(g.die_of(op.ppn).v, 5 % kDies);
    EXPECT_EQ(op.after, int32_t(i) - 1) << "op " << i;
    if (op.kind == Kind::Program) {
      EXPECT_EQ(g.page_in_block(op.ppn), next_page++);
      EXPECT_EQ(op.gc, g.page_in_block(op.ppn) != 7);
      if (op.gc) {
        EXPECT_EQ(w.ops[size_t(op.after)].kind, Kind::Read);
      }
    } else if (op.kind == Kind::Read) {
      EXPECT_TRUE(op.gc);
      EXPECT_EQ(g.block_of(op.ppn), g.block_of(old));
    } else {
      EXPECT_EQ(i, w.ops.size() - 1);
      EXPECT_TRUE(op.gc);
      EXPECT_EQ(op.ppn, old);
    }
  }
  EXPECT_EQ(stat(*f, "rmw_merges"), 1);
  EXPECT_EQ(stat(*f, "rmw_pages_copied"), kPpb - 1);
  EXPECT_EQ(f->stats().gc_pages_moved, kPpb - 1);
  for (uint32_t o = 0; o < kPpb; ++o) expect_reads(*f, media, lpn(5, o), o == 7 ? 7 : 1000 + o);
  f->check_consistency();
}

TEST(BlockFtl, SequentialWritesProgramEachPageOnceInOrder) {
  FlashMedia media(geometry(), true);
  auto f = make(media);
  const uint32_t blocks = 3, pages = blocks * kPpb;
  Count total;
  std::vector<uint32_t> next(blocks, 0);
  ftl::FtlWork w;
  for (uint32_t l = 0; l < pages; ++l) {
    w.clear();
    f->begin_command({ftl::HostRun::Op::Write, l, 1, l > 0});
    f->write(Lpn(l), l + 1, w);
    const Count c = count(w);
    total.reads += c.reads, total.programs += c.programs, total.erases += c.erases, total.gc_programs += c.gc_programs;
    // Flash work only when the buffer fills: its 4 pages, appended in order.
    EXPECT_EQ(c.programs, (l + 1) % 4 == 0 ? 4u : 0u) << "LPN " << l;
    for (const FlashOp& op : w.ops) {
      const uint32_t lb = l / kPpb;
      EXPECT_EQ(media.geometry().die_of(op.ppn).v, lb % kDies);  // logical blocks stripe over the dies
      EXPECT_EQ(media.geometry().page_in_block(op.ppn), next[lb]++);
    }
  }
  EXPECT_EQ(total.programs, pages);
  EXPECT_EQ(total.gc_programs, 0u);
  EXPECT_EQ(total.reads, 0u);
  EXPECT_EQ(total.erases, 0u);
  EXPECT_EQ(stat(*f, "appends"), pages);
  EXPECT_EQ(stat(*f, "buffer_flushes"), pages / 4);
  EXPECT_EQ(stat(*f, "rmw_merges"), 0);
  EXPECT_EQ(f->stats().write_amplification(), 1.0);
  for (uint32_t l = 0; l < pages; ++l) expect_reads(*f, media, l, l + 1);
  f->check_consistency();
}

TEST(BlockFtl, SequentialRewriteOfWrittenBlockCopiesNothing) {
  // A stream over data already written opens a new copy; once the stream
  // has rewritten every page, the old block is erased with no copy at all.
  FlashMedia media(geometry(), true);
  auto f = make(media);
  fill(*f, 2);
  ftl::FtlWork w;
  Count c;
  f->begin_command({ftl::HostRun::Op::Write, lpn(2, 0), kPpb, false});
  for (uint32_t o = 0; o < kPpb; ++o) {
    w.clear();
    f->write(Lpn(lpn(2, o)), 5000 + o, w);
    const Count k = count(w);
    c.reads += k.reads, c.programs += k.programs, c.erases += k.erases;
  }
  EXPECT_EQ(c.reads, 0u);
  EXPECT_EQ(c.programs, kPpb);
  EXPECT_EQ(c.erases, 1u);
  EXPECT_EQ(stat(*f, "rewrites"), 1);
  EXPECT_EQ(stat(*f, "rmw_pages_copied"), 0);
  for (uint32_t o = 0; o < kPpb; ++o) expect_reads(*f, media, lpn(2, o), 5000 + o);
  f->check_consistency();
}

// Eight random 4 KiB writes inside one full logical block, none continuing
// its copy: the buffer flushes every `buffer` distinct pages, and each flush
// is one whole-block RMW.
class BufferSize : public testing::TestWithParam<int> {};

TEST_P(BufferSize, DecidesHowRandomWritesInOneBlockCoalesce) {
  const uint32_t buffer = uint32_t(GetParam());
  FlashMedia media(geometry(), true);
  auto f = make(media, buffer);
  fill(*f, 3);
  f->reset_stats();
  const std::vector<uint32_t> offsets{9, 2, 17, 5, 30, 11, 0, 23};
  ftl::FtlWork w;
  Count c;
  auto add = [&](const ftl::FtlWork& x) {  // the ops on logical block 3's die
    for (const FlashOp& op : x.ops)
      if (media.geometry().die_of(op.ppn).v == 3 % kDies)
        c.reads += op.kind == Kind::Read, c.programs += op.kind == Kind::Program, c.erases += op.kind == Kind::Erase;
  };
  for (uint32_t o : offsets) {
    w.clear();
    f->begin_command({ftl::HostRun::Op::Write, lpn(3, o), 1, false});
    f->write(Lpn(lpn(3, o)), 100 + o, w);
    add(w);
  }
  w.clear();
  f->begin_command({ftl::HostRun::Op::Write, lpn(8, 0), 1, false});
  f->write(Lpn(lpn(8, 0)), 1, w);  // flushes what is left of block 3
  add(w);
  const uint32_t n = uint32_t(offsets.size()), rmws = (n + buffer - 1) / buffer;
  EXPECT_EQ(stat(*f, "rmw_merges"), rmws);
  // (With a one-page buffer the last write's own page is flushed at once too.)
  EXPECT_EQ(stat(*f, "buffer_flushes"), rmws + (buffer == 1 ? 1 : 0));
  // Each RMW reads every page but the ones it brings, programs the block.
  EXPECT_EQ(c.reads, rmws * kPpb - n);
  EXPECT_EQ(c.programs, rmws * kPpb);
  EXPECT_EQ(c.erases, rmws);
  for (uint32_t o = 0; o < kPpb; ++o)
    expect_reads(*f, media, lpn(3, o),
                 std::find(offsets.begin(), offsets.end(), o) != offsets.end() ? 100 + o : 1000 + o);
  f->check_consistency();
}

INSTANTIATE_TEST_SUITE_P(Pages, BufferSize, testing::Values(1, 2, 4, 8));

TEST(BlockFtl, TrimHandComputedSequence) {
  FlashMedia media(geometry(), true);
  auto f = make(media);
  fill(*f, 2);
  ftl::FtlWork w;
  for (uint32_t o = 3; o <= 6; ++o) f->trim(Lpn(lpn(2, o)), w);  // 4 pages
  EXPECT_EQ(f->stats().trimmed_pages, 4u);
  w.clear();
  f->read(Lpn(lpn(2, 4)), w);
  EXPECT_TRUE(w.ops.empty());
  EXPECT_EQ(f->stats().unmapped_reads, 1u);
  // A random write at offset 10, flushed by a write to block 7: the RMW
  // copies 32 - 4 trimmed - 1 new = 27 pages, skips the 4 trimmed ones (the
  // in-order rule fills their slots), programs 32 pages, erases the old block.
  w.clear();
  f->begin_command({ftl::HostRun::Op::Write, lpn(2, 10), 1, false});
  f->write(Lpn(lpn(2, 10)), 77, w);
  f->begin_command({ftl::HostRun::Op::Write, lpn(7, 0), 1, false});
  f->write(Lpn(lpn(7, 0)), 78, w);
  const Count c = count(w);
  EXPECT_EQ(c.reads, 27u);
  EXPECT_EQ(c.programs, 32u);
  EXPECT_EQ(c.gc_programs, 31u);
  EXPECT_EQ(c.erases, 1u);
  EXPECT_EQ(stat(*f, "rmw_pages_copied"), 27);
  EXPECT_EQ(stat(*f, "trimmed_pages_skipped"), 4);
  EXPECT_EQ(stat(*f, "filler_pages"), 4);
  // TRIM of a page still in the buffer drops it there: nothing on flash.
  w.clear();
  f->trim(Lpn(lpn(7, 0)), w);
  f->read(Lpn(lpn(7, 0)), w);
  EXPECT_TRUE(w.ops.empty());
  EXPECT_EQ(f->stats().trimmed_pages, 4u);
  // Trimming the rest of block 2 (28 valid pages; the 4 trimmed count once)
  // gives its physical block back, to be erased in idle time.
  for (uint32_t o = 0; o < kPpb; ++o) f->trim(Lpn(lpn(2, o)), w);
  EXPECT_EQ(f->stats().trimmed_pages, 4u + 28u);
  EXPECT_EQ(stat(*f, "blocks_freed_by_trim"), 1);
  EXPECT_FALSE(f->lookup(Lpn(lpn(2, 10))).valid());
  f->check_consistency();
  w.clear();
  ASSERT_TRUE(f->background(w));
  ASSERT_EQ(w.ops.size(), 1u);
  EXPECT_EQ(w.ops[0].kind, Kind::Erase);
  EXPECT_TRUE(w.ops[0].gc);
  w.clear();
  EXPECT_FALSE(f->background(w));
  f->check_consistency();
}

TEST(BlockFtl, BufferBeyondBlockOrZeroIsRefusedNamingTheOption) {
  FlashMedia media(geometry(), false);
  for (double bad : {double(kPpb + 1), 0.0}) {
    try {
      make(media, bad);
      ADD_FAILURE() << "accepted a buffer of " << bad;
    } catch (const ftl::FtlConfigError& e) {
      EXPECT_EQ(e.key, "ftl.block.buffer");
      EXPECT_NE(std::string(e.what()).find("pages of a logical block (32"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(make(media, kPpb));
  try {
    make(media, 4, 3);  // 3 does not divide the 4 dies
    ADD_FAILURE() << "accepted a stripe of 3";
  } catch (const ftl::FtlConfigError& e) {
    EXPECT_EQ(e.key, "ftl.block.stripe");
  }
}

// Writes logical block 1 of a stripe-2 drive in order. It is in die group 1
// of 2: dies 2 and 3, on channels 0 and 1. With `unit` pages per die at a
// time (2: two-plane pairs), its page i is on die 2 + (i / unit) % 2, at
// page i / (2 unit) x unit + i % unit of that die's block; the two blocks
// have the same index.
void expect_stripe_layout(ftl::Ftl& f, const FlashGeometry& g, uint32_t unit) {
  ftl::FtlWork w;
  f.begin_command({ftl::HostRun::Op::Write, 64, 64, false});
  for (uint32_t l = 64; l < 128; ++l) f.write(Lpn(l), l, w);
  for (uint32_t i = 0; i < 64; ++i) {
    const Ppn p = f.lookup(Lpn(64 + i));
    EXPECT_EQ(g.die_of(p).v, 2 + (i / unit) % 2) << i;
    EXPECT_EQ(g.page_in_block(p), i / (2 * unit) * unit + i % unit) << i;
    EXPECT_EQ(g.block_of(p).v % g.blocks_per_die(), g.block_of(f.lookup(Lpn(64))).v % g.blocks_per_die());
  }
}

TEST(BlockFtl, StripedLogicalBlockPutsPageIOnDieIModStripe) {
  FlashMedia media(geometry(), true);
  auto f = make(media, 4, 2);
  expect_stripe_layout(*f, media.geometry(), 1);
  EXPECT_EQ(f->map_bytes(), (6553u + 63u) / 64u * 4u);  // one entry per logical block
  f->check_consistency();
}

TEST(BlockFtl, WithTwoPlanesAStripeUnitIsAPairOfPages) {
  FlashMedia media(geometry(), true);
  auto f = make(media, 4, 2, 2);
  expect_stripe_layout(*f, media.geometry(), 2);
  // A flush of four pages: two programs on each die, each pair chained to
  // what came before it on its die (nothing), not to its partner.
  ftl::FtlWork w;
  f->begin_command({ftl::HostRun::Op::Write, 128, 4, false});
  for (uint32_t l = 128; l < 132; ++l) f->write(Lpn(l), l, w);
  ASSERT_EQ(w.ops.size(), 4u);
  for (const FlashOp& op : w.ops) EXPECT_EQ(op.after, -1);
  f->check_consistency();
}

TEST(BlockFtl, MapIsOneEntryPerLogicalBlock) {
  FlashMedia media(geometry(), false);
  auto f = make(media);
  // 4 dies x 64 blocks x 32 pages / 1.25 = 6553 user pages -> 205 logical blocks of 4 B.
  EXPECT_EQ(f->user_pages(), 6553u);
  EXPECT_EQ(f->map_bytes(), 205u * 4u);
}

// Random command runs (some continuing the last, some trimmed, idle flushes)
// reach every path: appends, rewrites and their closes, RMWs, filler, TRIM
// freeing blocks; the data and the FTL's own check hold throughout.
// (Parameter: the stripe, negative for two-plane pairs.)
class Striped : public testing::TestWithParam<int> {};

TEST_P(Striped, RandomRunsReachEveryPathAndStayConsistent) {
  FlashMedia media(geometry(), true);
  const int stripe = std::abs(GetParam());
  auto f = make(media, 4, stripe, GetParam() < 0 ? 2 : 1);
  const uint32_t lpb = kPpb * uint32_t(stripe);
  const uint64_t n = f->user_pages();
  std::vector<uint64_t> shadow(n, 0);
  Random rng(99);
  ftl::FtlWork w;
  uint64_t version = 0, next = 0;
  for (int i = 0; i < 40000; ++i) {
    const uint64_t len = 1 + rng.below(12);
    const bool seq = rng.below(2) == 0 && next + len <= n;
    // Trims of whole logical blocks now and then, so some are freed.
    const bool whole = rng.below(50) == 0;
    const uint64_t first = whole ? rng.below(n / lpb) * lpb : seq ? next : rng.below(n - len + 1);
    const uint64_t pages = whole ? lpb : len;
    const uint32_t dice = rng.percent();
    const auto op = whole || dice < 10 ? ftl::HostRun::Op::Trim : dice < 70 ? ftl::HostRun::Op::Write
                                                                           : ftl::HostRun::Op::Read;
    f->begin_command({op, first, pages, seq});
    next = first + pages;
    for (uint64_t l = first; l < first + pages; ++l) {
      w.clear();
      if (op == ftl::HostRun::Op::Write) {
        f->write(Lpn(uint32_t(l)), ++version, w);
        shadow[l] = version;
      } else if (op == ftl::HostRun::Op::Trim) {
        f->trim(Lpn(uint32_t(l)), w);
        shadow[l] = 0;
      } else {
        f->read(Lpn(uint32_t(l)), w);
        PageContent c;
        ASSERT_EQ(w.returns(media, c), shadow[l] != 0) << "LPN " << l;
        if (shadow[l]) {
          ASSERT_EQ(c.version, shadow[l]) << "LPN " << l;
        }
      }
    }
    if (rng.below(100) == 0)
      for (int s = 0; s < 3; ++s) w.clear(), f->background(w);
    if (i % 1000 == 0) {
      ASSERT_NO_THROW(f->check_consistency()) << "command " << i;
    }
  }
  ASSERT_NO_THROW(f->check_consistency());
  for (const char* s : {"appends", "rewrites", "rewrite_closes", "rmw_merges", "filler_pages", "trimmed_pages_skipped",
                        "blocks_freed_by_trim", "buffer_hits", "buffer_overwrites"})
    EXPECT_GT(stat(*f, s), 0) << s;
}

INSTANTIATE_TEST_SUITE_P(Dies, Striped, testing::Values(1, 2, 4, -1, -2, -4));

// --- Timing on an idle drive (tests/model/timing_drive.h), DRAM-less like
// the JMF602: map and buffer in controller SRAM cost no DRAM access.

using namespace ssdtest;

using Timed = ssdtest::TimedRequests;  // requests at fixed arrival times (open loop)

// The same RMW with two-plane operations (nand.multiplane, two planes of
// 32 blocks: the same flash): pages 2k and 2k + 1 of the logical block are
// the two planes of one physical page on die k % stripe, so the copies go in
// pairs: a two-plane read (tR, then both pages out) and a two-plane program
// (both pages in, tPROG). In the new page's pair only the other page is read.
uint64_t rmw_flash_planes(uint64_t stripe, uint64_t offset) {
  uint64_t end = 0;
  for (uint64_t die = 0; die < stripe; ++die) {
    const uint64_t host = (offset / 2) % stripe == die ? 1 : 0, pairs = kPagesPerBlock - host;
    end = std::max(end, pairs * (kTr + 4 * kXfer + kTprog) + host * (kTr + 3 * kXfer + kTprog) + kErase);
  }
  return end;
}

void expect_one_rmw(uint64_t stripe, bool planes) {
  const uint64_t lpb = stripe * kPagesPerBlock * (planes ? 2 : 1);
  std::vector<std::string> args = {"--ftl.name=block", "--dram.size=0", "--precondition=seq-fill",
                                   "--ftl.block.buffer=4", "--ftl.block.stripe=" + std::to_string(stripe),
                                   "--cpu.cycles.gc_page=300", "--cpu.cycles.gc_victim=500"};
  if (planes) args.insert(args.end(), {"--nand.planes_per_die=2", "--nand.blocks_per_plane=32", "--nand.multiplane=true"});
  const Options opts = parse(drive(args));
  Simulation sim(opts.config());
  // seq-fill leaves n % lpb pages in the last logical block, of which
  // (n % lpb) % 4 still in the buffer: the first timed write flushes them
  // (an append, on other dies); it lands in the buffer at logical block 0,
  // offset 5. The second write, to logical block 1, flushes that page: a
  // whole-block RMW of logical block 0 on dies 0 .. stripe - 1.
  const uint64_t n = uint64_t(8.0 * 4 * 64 * 64 / 1.25), left = (n % lpb) % 4;
  ASSERT_EQ(left, 1u);
  Timed src({write_at(5 * 4096, 0), write_at(lpb * 4096, 1000000000 * kNs)});
  sim.run(&src, 1);
  const auto r = sim.report();
  const uint64_t append = kWriteIn + kLookup + ps_cycles(100, kClock) + kXfer + kTprog + kComplete;
  // FTL cycles: the lookup, per copied page its bookkeeping, the map update
  // and recycling the old block set; then one flash_op step per FTL op
  // (a two-plane operation is two of them).
  const uint64_t copies = lpb - 1, ops = 2 * copies + 1 + stripe;
  const uint64_t rmw = kWriteIn + ps_cycles(double(150 + copies * kGcPage + 200 + kGcVictim), kClock) +
                       ps_cycles(100.0 * double(ops), kClock) +
                       (planes ? rmw_flash_planes(stripe, 5) : rmw_flash(stripe, 5)) + kComplete;
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), append / kNs);
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(), rmw / kNs);
  // The estimate, pages x (tR + tPROG) / dies + tBERS, leaves out
  // the two channel transfers per copied page (2 x 102.4 us at 40 MB/s):
  // 62.8 ms vs 75.8 ms here for one die.
  testing::Test::RecordProperty("rmw_latency_ns", std::to_string(rmw / kNs));
  uint64_t gc_reads = 0, gc_programs = 0, programs = 0, gc_erases = 0, paired = 0;
  for (const auto& c : r["device"]["channels"]) {
    gc_reads += c["gc_reads"].get<uint64_t>(), gc_programs += c["gc_programs"].get<uint64_t>();
    programs += c["programs"].get<uint64_t>(), gc_erases += c["gc_erases"].get<uint64_t>();
    paired += c["multi_plane_ops"].get<uint64_t>();
  }
  EXPECT_EQ(gc_reads, copies);
  EXPECT_EQ(gc_programs, copies);
  EXPECT_EQ(programs, 2u);  // the appended page and the new one (paired with a copy, still a host page)
  EXPECT_EQ(r["device"]["ftl"]["stats"]["rmw_merges"]["value"], 1.0);
  if (!planes) {
    EXPECT_EQ(gc_erases, stripe);
    EXPECT_EQ(paired, 0u);
    return;
  }
  EXPECT_EQ(gc_erases, 2 * stripe);  // a two-plane block on each die
  // Every read pair but the new page's, every program pair, every erase.
  EXPECT_EQ(paired, (kPagesPerBlock * stripe - 1) + kPagesPerBlock * stripe + stripe);
}

class StripedRmw : public testing::TestWithParam<int> {};

TEST_P(StripedRmw, RandomWriteToFullLogicalBlockStallsForOneRmw) { expect_one_rmw(uint64_t(GetParam()), false); }

TEST_P(StripedRmw, WithTwoPlaneOperationsTheCopiesGoInPairs) { expect_one_rmw(uint64_t(GetParam()), true); }

INSTANTIATE_TEST_SUITE_P(Dies, StripedRmw, testing::Values(1, 2));

// controller.serial_gc: merges of different commands never overlap. With a
// one-page buffer and one die per logical block, every random write to the
// filled drive flushes the previous one into a whole-block RMW on one die;
// at QD 8 on 32 dies those RMWs would overlap, but serialised at most one die
// works at a time, so the dies' busy time adds up to no more than the run
// (simulated time plus the drain after the last completion). Without the
// option, the same run keeps several dies busy at once.
uint64_t die_busy_over_run(bool serial) {
  auto r = simulate(drive({"--ftl.name=block", "--dram.size=0", "--precondition=seq-fill", "--ftl.block.buffer=1",
                           "--ftl.block.stripe=1", "--workload.rw=randwrite", "--workload.iodepth=8",
                           "--workload.number_ios=60", std::string("--controller.serial_gc=") + (serial ? "true" : "false")}));
  uint64_t busy = 0;
  for (const auto& d : r["device"]["dies"]) busy += d["busy_ns"].get<uint64_t>();
  const uint64_t run = r["device"]["simulated_time_ns"].get<uint64_t>() + r["device"]["drain_ns"].get<uint64_t>();
  EXPECT_GT(r["device"]["ftl"]["stats"]["rmw_merges"]["value"].get<double>(), 40.0);
  return busy * 100 / run;  // percent
}

TEST(BlockFtlTiming, SerialGcRunsOneMergeAtATime) { EXPECT_LE(die_busy_over_run(true), 100u); }

TEST(BlockFtlTiming, WithoutSerialGcMergesOverlap) { EXPECT_GT(die_busy_over_run(false), 150u); }

TEST(BlockFtlTiming, SequentialWritesAtQd1StayFarBelowTheRmw) {
  const uint64_t ios = 4 * kPagesPerBlock;
  auto r = simulate(drive({"--ftl.name=block", "--dram.size=0", "--precondition=none", "--ftl.block.buffer=4",
                           "--workload.rw=write", "--workload.bs=4k", "--workload.iodepth=1",
                           "--workload.number_ios=" + std::to_string(ios)}));
  // Three writes in four only fill the buffer; the fourth programs the four
  // pages on its logical block's die, one after the other (the first flush of
  // a logical block also writes its map entry).
  const uint64_t buffered = kWriteIn + kLookup + kComplete;
  const uint64_t flush = kWriteIn + kLookup + ps_cycles(400, kClock) + 4 * (kXfer + kTprog) + kComplete;
  const uint64_t first_flush = kWriteIn + ps_cycles(150 + 200, kClock) + ps_cycles(400, kClock) +
                               4 * (kXfer + kTprog) + kComplete;
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), buffered / kNs);
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(), first_flush / kNs);
  const uint64_t blocks = ios / kPagesPerBlock, flushes = ios / 4;
  const double mean = (double((ios - flushes) * (buffered / kNs)) + double((flushes - blocks) * (flush / kNs)) +
                       double(blocks * (first_flush / kNs))) / double(ios);
  EXPECT_NEAR(r["write"]["lat_ns"]["mean"].get<double>(), mean, 1.0);
  EXPECT_LT(first_flush * 10, rmw_flash(1, 5));  // far below a random write's RMW
  uint64_t programs = 0, other = 0;
  for (const auto& c : r["device"]["channels"]) {
    programs += c["programs"].get<uint64_t>();
    other += c["reads"].get<uint64_t>() + c["erases"].get<uint64_t>() + c["gc_reads"].get<uint64_t>() +
             c["gc_programs"].get<uint64_t>() + c["gc_erases"].get<uint64_t>();
  }
  EXPECT_EQ(programs, ios);
  EXPECT_EQ(other, 0u);
  EXPECT_EQ(r["device"]["ftl"]["stats"]["appends"]["value"], double(ios));
}

}  // namespace block_ftl_test

}  // namespace ssd
