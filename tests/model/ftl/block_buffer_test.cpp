// The block FTL's write buffer holding pages of several logical blocks
// (ftl.block.buffer_blocks): what fills it, what a flush emits (every held
// block's merge in turn, a later block's first op on each die waiting for
// the earlier blocks' work, a two-plane unit of a stream never split), and
// the idle-drive latency of a write whose flush runs two merges back to
// back, exact to the nanosecond.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/ftl/ftl.h"
#include "model/nand/flash_media.h"
#include "tests/model/ftl/block_rig.h"
#include "tests/model/timed_source.h"
#include "tests/model/timing_drive.h"

namespace ssd {
namespace block_buffer_test {

using namespace block_test;

// One random page into each of three full logical blocks, stripe 2 (a
// logical block is 64 pages on the two dies of its group), buffer 3 pages
// of up to 3 blocks: the first two writes are buffered, the third fills the
// buffer and flushes all three, each a whole-block RMW.
TEST(BlockFtlBuffer, AFullBufferFlushesEveryHeldBlockInTurn) {
  FlashMedia media(geometry(), /*track_content=*/true);
  auto f = make(media, /*buffer=*/3, /*stripe=*/2, /*die_pages=*/1, /*buffer_blocks=*/3);
  const uint32_t lpb = 2 * kPpb, blocks[] = {4, 1, 6};
  const auto lpn2 = [&](uint32_t lb, uint32_t off) { return lb * lpb + off; };
  for (uint32_t lb : blocks) {
    ftl::FtlWork w;
    f->begin_command({ftl::HostRun::Op::Write, lpn2(lb, 0), lpb, false});
    for (uint32_t o = 0; o < lpb; ++o) f->write(Lpn(lpn2(lb, o)), 1000 + o, w);
  }
  f->reset_stats();
  ftl::FtlWork w;
  for (size_t k = 0; k < 3; ++k) {
    w.clear();
    f->begin_command({ftl::HostRun::Op::Write, lpn2(blocks[k], 9), 1, false});
    f->write(Lpn(lpn2(blocks[k], 9)), 7 + k, w);
    if (k < 2) {
      EXPECT_TRUE(w.ops.empty()) << "write " << k;
      expect_reads(*f, media, lpn2(blocks[k], 9), 7 + k);  // from the buffer
    }
  }
  // Per block: 63 copies (a read and a program each), the new page, and
  // the old block on each of the group's two dies erased.
  const uint32_t per = 2 * (lpb - 1) + 1 + 2;
  ASSERT_EQ(w.ops.size(), 3u * per);
  const FlashGeometry g = geometry();
  for (uint32_t k = 0; k < 3; ++k) {
    std::vector<uint32_t> heads, siblings;
    for (uint32_t i = k * per; i < (k + 1) * per; ++i) {
      const FlashOp& op = w.ops[i];
      EXPECT_EQ(g.die_of(op.ppn).v / 2, blocks[k] % 2) << "op " << i;  // the block's die group
      if (op.after < 0) {  // a die's first op of the block
        EXPECT_EQ(op.barrier, k > 0) << "op " << i;
      }
      if (op.barrier) (op.sibling ? siblings : heads).push_back(i);
    }
    if (k == 0) {
      EXPECT_TRUE(heads.empty() && siblings.empty());
      continue;
    }
    // The block's very first op waits for every op before it; the first op
    // on the group's other die waits for the same (it is its sibling).
    ASSERT_EQ(heads.size(), 1u);
    EXPECT_EQ(heads[0], k * per);
    ASSERT_EQ(siblings.size(), 1u);
    EXPECT_NE(g.die_of(w.ops[siblings[0]].ppn), g.die_of(w.ops[heads[0]].ppn));
  }
  EXPECT_EQ(stat(*f, "rmw_merges"), 3);
  EXPECT_EQ(stat(*f, "buffer_flushes"), 1);
  for (uint32_t k = 0; k < 3; ++k) {
    expect_reads(*f, media, lpn2(blocks[k], 9), 7 + k);
    expect_reads(*f, media, lpn2(blocks[k], 10), 1010);
  }
  f->check_consistency();
}

// A write to a block beyond ftl.block.buffer_blocks flushes the held ones
// even when pages are left; TRIM of a held block's only page lets it go.
TEST(BlockFtlBuffer, AFurtherBlockFlushesTheHeldOnes) {
  FlashMedia media(geometry(), /*track_content=*/true);
  auto f = make(media, /*buffer=*/4, /*stripe=*/1, /*die_pages=*/1, /*buffer_blocks=*/2);
  for (uint32_t lb : {1u, 2u, 3u}) fill(*f, lb);  // each fills the buffer 8 times: appends
  f->reset_stats();
  ftl::FtlWork w;
  const auto write = [&](uint32_t l, uint64_t version) {
    f->begin_command({ftl::HostRun::Op::Write, l, 1, false});  // one page: not a stream
    f->write(Lpn(l), version, w);
  };
  write(lpn(1, 3), 1);
  write(lpn(2, 3), 2);
  EXPECT_TRUE(w.ops.empty());
  write(lpn(3, 3), 3);  // a third block: blocks 1 and 2 are merged
  EXPECT_EQ(stat(*f, "rmw_merges"), 2);
  EXPECT_EQ(count(w).erases, 2u);
  f->check_consistency();
  w.clear();
  f->trim(Lpn(lpn(3, 3)), w);  // the buffered copy goes, and block 3 with it
  f->check_consistency();
  write(lpn(1, 4), 4);
  write(lpn(2, 4), 5);
  EXPECT_EQ(stat(*f, "buffer_flushes"), 1);  // two blocks held: no flush yet
  f->check_consistency();
}

// Two-plane units (die_pages 2), stripe 2, a buffer of 4 pages of up to 4
// blocks. One random page of logical block 7 (dies 2 and 3) sits in the
// buffer when a stream starts at page 0 of logical block 0 (dies 0 and 1),
// so the stream's pages reach a full buffer one out of step. The page that
// would open a unit when the buffer fills stays buffered for its partner:
// every flush programs whole units of block 0 (pages 2k and 2k + 1 together,
// one two-plane program), never one page of a unit.
TEST(BlockFtlBuffer, AFlushNeverSplitsATwoPlaneUnitOfAStream) {
  FlashMedia media(geometry(), /*track_content=*/true);
  auto f = make(media, /*buffer=*/4, /*stripe=*/2, /*die_pages=*/2, /*buffer_blocks=*/4);
  const uint32_t lpb = 2 * kPpb, pages = 24;
  ftl::FtlWork w;
  f->begin_command({ftl::HostRun::Op::Write, 7 * lpb + 5, 1, false});
  f->write(Lpn(7 * lpb + 5), 1, w);
  EXPECT_TRUE(w.ops.empty());
  size_t flushed = 0;  // block 0's pages programmed so far
  f->begin_command({ftl::HostRun::Op::Write, 0, pages, false});
  for (uint32_t l = 0; l < pages; ++l) {
    w.clear();
    f->write(Lpn(l), 100 + l, w);
    // On each die the pages come in pairs: an even count of programs, the
    // first at an even page of the block.
    for (uint32_t die = 0; die < 2; ++die) {
      std::vector<uint32_t> on;
      for (const FlashOp& op : w.ops)
        if (op.kind == Kind::Program && media.geometry().die_of(op.ppn).v == die)
          on.push_back(media.geometry().page_in_block(op.ppn));
      flushed += on.size();
      EXPECT_EQ(on.size() % 2, 0u) << "page " << l << ", die " << die;
      for (size_t k = 0; k < on.size(); k += 2) {
        EXPECT_EQ(on[k] % 2, 0u) << "page " << l << ", die " << die;
        if (k + 1 < on.size()) {
          EXPECT_EQ(on[k + 1], on[k] + 1) << "page " << l << ", die " << die;
        }
      }
    }
  }
  // The first flush took block 7's page and pages 0-1 (page 2 held back),
  // then one flush per 4 pages: 2-5, 6-9, ... 18-21; pages 22-23 buffered.
  EXPECT_EQ(flushed, 22u);
  EXPECT_EQ(stat(*f, "buffer_flushes"), 6);
  f->check_consistency();
  for (uint32_t l = 0; l < pages; ++l) expect_reads(*f, media, l, 100 + l);
}

TEST(BlockFtlBuffer, BlocksBeyondTheBufferOrZeroAreRefusedNamingTheOption) {
  for (double blocks : {0.0, 5.0, 1.5}) {
    FlashMedia media(geometry(), /*track_content=*/false);
    try {
      make(media, /*buffer=*/4, /*stripe=*/1, /*die_pages=*/1, blocks);
      ADD_FAILURE() << "accepted " << blocks;
    } catch (const ftl::FtlConfigError& e) {
      EXPECT_EQ(e.key, "ftl.block.buffer_blocks");
    }
  }
}

// The idle timing drive, DRAM-less, one die per logical block, a buffer of
// 23 pages of up to 2 blocks. seq-fill leaves the buffer empty (its 104857
// pages are 4559 flushes of 23: a sequential fill holds at most the end of
// one block and the start of the next, so only a full buffer flushes). Writes into
// full logical blocks 0 and 1 (dies 0 and 1) are buffered; one into block 2
// flushes them: block 0's RMW, then block 1's (its first op waits for every
// op of block 0's), though they are on different dies. A fourth write, 1 ms
// later, goes into the buffer but completes only once the flush has ended
// (its slot is free then), after the third's completion step.
TEST(BlockFtlBufferTiming, AFlushOfTwoBlocksRunsTheirMergesBackToBack) {
  const uint64_t n = uint64_t(8.0 * 4 * 64 * 64 / 1.25);
  ASSERT_EQ(n % 23, 0u);
  const Options opts = parse(drive({"--ftl.name=block", "--dram.size=0", "--precondition=seq-fill",
                                    "--ftl.block.buffer=23", "--ftl.block.buffer_blocks=2", "--ftl.block.stripe=1",
                                    "--cpu.cycles.gc_page=300", "--cpu.cycles.gc_victim=500"}));
  Simulation sim(opts.config());
  const uint64_t second = 1000000000 * kNs;
  const uint64_t ms = 1000000 * kNs;
  TimedRequests src({write_at(5 * 4096, 0), write_at((kPagesPerBlock + 5) * 4096, second),
                     write_at((2 * kPagesPerBlock + 5) * 4096, 2 * second),
                     write_at((2 * kPagesPerBlock + 6) * 4096, 2 * second + ms)});
  sim.run(&src, 2);  // two in flight: the fourth is issued during the third
  const auto r = sim.report();
  const uint64_t buffered = kWriteIn + kLookup + kComplete;
  // FTL cycles: the lookup, and per merge its copied pages' bookkeeping, the
  // map update and recycling the old block; one flash_op step per FTL op.
  const uint64_t copies = kPagesPerBlock - 1, ops = 2 * (2 * copies + 1 + 1);
  const uint64_t two_merges = kWriteIn + ps_cycles(double(150 + 2 * (copies * kGcPage + 200 + kGcVictim)), kClock) +
                              ps_cycles(100.0 * double(ops), kClock) + 2 * rmw_flash(1, 5) + kComplete;
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), buffered / kNs);
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(), two_merges / kNs);
  const uint64_t waits = two_merges + kComplete - ms;
  EXPECT_DOUBLE_EQ(r["write"]["lat_ns"]["mean"].get<double>(),
                   double(2 * (buffered / kNs) + two_merges / kNs + waits / kNs) / 4);
  EXPECT_EQ(r["device"]["ftl"]["stats"]["rmw_merges"]["value"], 2.0);
}

// The same with two-plane programs (8 KiB writes, nand.multiplane): a
// command's pages then reach the FTL as one group. The fourth write, into
// the buffer while the third's flush runs, still completes only once the
// flush has ended: its completion step follows the third's on the core.
// (Spare 1/3: the 196608 user pages are 8192 flushes of 24, so the fill
// leaves the buffer empty, and a flush never holds back half of a unit.)
TEST(BlockFtlBufferTiming, AWriteIntoTheBufferDuringAFlushWaitsForItWithTwoPlanes) {
  const Options opts = parse(drive({"--ftl.name=block", "--dram.size=0", "--precondition=seq-fill",
                                    "--nand.planes_per_die=2", "--nand.multiplane=true", "--ftl.op=0.3333333", "--ftl.block.buffer=24",
                                    "--ftl.block.buffer_blocks=2", "--ftl.block.stripe=1"}));
  Simulation sim(opts.config());
  const uint64_t second = 1000000000 * kNs, ms = 1000000 * kNs, block = 8 * kPagesPerBlock * 4096;
  std::vector<HostRequest> w = {write_at(8192, 0), write_at(block + 8192, second), write_at(2 * block + 8192, 2 * second),
                                write_at(2 * block + 16384, 2 * second + ms)};
  for (size_t k = 0; k < w.size(); ++k) w[k].bytes = 8192, w[k].id = k;
  std::vector<uint64_t> done(w.size());
  sim.on_completion([&](const IoCompletion& c) { done.at(c.request.id) = uint64_t(c.completion.value()); });
  TimedRequests src(w);
  sim.run(&src, 2);
  const auto r = sim.report();
  ASSERT_EQ(r["device"]["ftl"]["stats"]["rmw_merges"]["value"], 2.0);
  EXPECT_GT(done[2], 2 * second + 10 * ms);  // two merges
  EXPECT_EQ(done[3], done[2] + kComplete);
}

}  // namespace block_buffer_test

}  // namespace ssd
