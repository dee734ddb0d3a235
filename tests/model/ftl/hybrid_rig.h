#pragma once
// The hybrid FTL tests' small drive and FTL parameters, and the timing of a
// full merge (hybrid_ftl_test.cpp, hybrid_stripe_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/ftl/ftl.h"
#include "model/nand/geometry.h"
#include "tests/model/timed_source.h"
#include "tests/model/timing_drive.h"

namespace ssd::hybrid_test {

// 1 die x 16 blocks x 4 pages, 25% spare: 64 / 1.25 = 51 user pages, so 13
// logical blocks (the last one of 3 pages) and 16 - 13 = 3 spare blocks,
// room for 2 log blocks (one spare block stays for a full merge's copy).
inline FlashGeometry tiny() {
  FlashGeometry g;
  g.channels = 1, g.dies_per_channel = 1, g.planes_per_die = 1, g.blocks_per_plane = 16, g.pages_per_block = 4;
  return g;
}

inline ftl::FtlParams params(const FlashGeometry& g, double log_blocks, bool idle_merge = true,
                             double op = 0.25, double stripe = 1, bool interleave = false) {
  ftl::FtlParams p;
  p.geometry = g;
  p.over_provisioning = op;
  p.options.number["ftl.log_blocks"] = log_blocks;
  p.options.number["ftl.hybrid.idle_merge"] = idle_merge ? 1 : 0;
  p.options.number["ftl.hybrid.stripe"] = stripe;
  p.options.number["ftl.hybrid.interleave"] = interleave ? 1 : 0;
  return p;
}

// BAST on the timing drive with 4 pages per block, `dies` dies (one per
// channel) a logical block striped over them, written at `lpns` 20 ms
// apart on an idle drive: the last write must find the second log block
// full of the logical block's pages out of order (the first log was
// switched into the data block). Its latency is exact: lookup and update,
// a victim (500 cycles) and 4 x dies page copies (300 each); map traffic
// (block map read, log map write, block map update: 12 bytes); the ops to
// issue (the reads and programs of the copies, two erases per die, the host
// program); on each die at once, its 4 copies in turn (tR + the page out,
// the page in + tPROG); the erases of the two block sets one after the
// other; the host page.
inline void expect_full_merge_timing(uint64_t dies, const std::vector<uint64_t>& lpns) {
  using namespace ssdtest;
  const Options opts = parse(drive({"--nand.channels=" + std::to_string(dies), "--nand.dies_per_channel=1",
                                    "--nand.pages_per_block=4", "--precondition=none", "--ftl.name=bast",
                                    "--ftl.hybrid.stripe=" + std::to_string(dies), "--cpu.cycles.gc_page=300",
                                    "--cpu.cycles.gc_victim=500"}));
  Simulation sim(opts.config());
  TimedRequests src(writes_apart(lpns, 20e9));
  sim.run(&src, 1);
  const auto r = sim.report();
  const uint64_t copies = 4 * dies, ops = 2 * copies + 2 * dies + 1;
  const uint64_t tErase = 2000000 * kNs, x = ps_xfer(4096, kChannel);
  const uint64_t merge = kWriteFront + kLookup + kUpdate + ps_cycles(double(500 + copies * 300), kClock) + dram(12) +
                         ops * kFlashOp + 4 * (kTr + x + x + kTprog) + 2 * tErase + kHostProgram + kComplete;
  EXPECT_EQ(r["write"]["total_ios"], lpns.size());
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), kWrite4k / kNs);
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(), merge / kNs);
  const auto& s = r["device"]["ftl"]["stats"];
  EXPECT_EQ(s["full_merges"]["value"], 1.0);
  EXPECT_EQ(s["switch_merges"]["value"], 1.0);
  EXPECT_EQ(s["merge_pages_copied"]["value"], double(copies));
  for (uint64_t c = 0; c < dies; ++c) {
    EXPECT_EQ(r["device"]["channels"][c]["gc_reads"], 4) << c;
    EXPECT_EQ(r["device"]["channels"][c]["gc_programs"], 4) << c;
    EXPECT_EQ(r["device"]["channels"][c]["gc_erases"], 2) << c;
  }
}

}  // namespace ssd::hybrid_test
