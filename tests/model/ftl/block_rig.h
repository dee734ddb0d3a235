#pragma once
// The block FTL tests' small drive, the FTL built on it, and helpers that
// write and check logical blocks (block_ftl_test.cpp, block_buffer_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "model/ftl/ftl.h"
#include "model/host/io_source.h"
#include "model/nand/flash_media.h"
#include "tests/model/timing_drive.h"

namespace ssd::block_test {

using ftl::FlashOp;
using Kind = ftl::FlashOp::Kind;

// 2 channels x 2 dies x 64 blocks x 32 pages, 25 % spare.
inline constexpr uint32_t kPpb = 32, kDies = 4;

inline FlashGeometry geometry() {
  FlashGeometry g;
  g.channels = 2;
  g.dies_per_channel = 2;
  g.planes_per_die = 1;
  g.blocks_per_plane = 64;
  g.pages_per_block = kPpb;
  return g;
}

// `die_pages` 2: the firmware pairs pages on two planes (nand.multiplane;
// the FTL's blocks are then two-plane blocks, pages 2k and 2k + 1 one
// physical page on the two planes).
inline std::unique_ptr<ftl::Ftl> make(FlashMedia& media, double buffer = 4, double stripe = 1, uint32_t die_pages = 1,
                               double buffer_blocks = 1) {
  ftl::FtlParams p;
  p.geometry = media.geometry();
  p.die_pages = die_pages;
  p.over_provisioning = 0.25;
  p.options.number["ftl.block.buffer"] = buffer;
  p.options.number["ftl.block.stripe"] = stripe;
  p.options.number["ftl.block.buffer_blocks"] = buffer_blocks;
  return ftl::FtlRegistry::instance().create("block", p, media);
}

inline double stat(const ftl::Ftl& f, const std::string& name) {
  for (const ftl::FtlStat& s : f.extra_stats())
    if (s.name == name) return s.value;
  ADD_FAILURE() << "no statistic " << name;
  return -1;
}

struct Count {
  uint32_t reads = 0, programs = 0, erases = 0, gc_programs = 0;
};
inline Count count(const ftl::FtlWork& w) {
  Count c;
  for (const FlashOp& op : w.ops) {
    if (op.kind == Kind::Read) ++c.reads;
    if (op.kind == Kind::Program) ++c.programs, c.gc_programs += op.gc;
    if (op.kind == Kind::Erase) ++c.erases;
  }
  return c;
}

inline uint32_t lpn(uint32_t logical_block, uint32_t offset) { return logical_block * kPpb + offset; }

// Writes every page of `lb` in order (as one stream), version = 1000 + offset.
inline void fill(ftl::Ftl& f, uint32_t lb) {
  ftl::FtlWork w;
  f.begin_command({ftl::HostRun::Op::Write, lpn(lb, 0), kPpb, false});
  for (uint32_t o = 0; o < kPpb; ++o) f.write(Lpn(lpn(lb, o)), 1000 + o, w);
}

inline void expect_reads(ftl::Ftl& f, FlashMedia& media, uint32_t l, uint64_t version) {
  ftl::FtlWork w;
  f.read(Lpn(l), w);
  PageContent c;
  ASSERT_TRUE(w.returns(media, c)) << "LPN " << l;
  EXPECT_EQ(c.lpn, l);
  EXPECT_EQ(c.version, version) << "LPN " << l;
}

// --- Timing on an idle drive (tests/model/timing_drive.h).

using namespace ssdtest;

inline HostRequest write_at(uint64_t offset, uint64_t ps) {
  HostRequest r;
  r.op = ssdtlm::HostOp::Write, r.offset = offset, r.bytes = 4096, r.timed = true;
  r.arrival = sc_time(double(ps), sc_core::SC_PS);
  return r;
}

inline const uint64_t kXfer = ps_xfer(4096, kChannel), kErase = 2000000 * kNs, kGcPage = 300, kGcVictim = 500;
inline constexpr uint64_t kPagesPerBlock = 64;  // the timing drive's
// Host side of a 4 KiB write to the FTL, and its completion.
inline const uint64_t kWriteIn = kCmd + ps_xfer(4096, kSata) + kDecode;
// One block RMW with the new page at `offset`, on `stripe` dies (on different
// channels): on each die, for each page of the logical block there (page i
// on die i % stripe) but the new one, a read (tR, then the page out over the
// channel) and its program (the page back in, tPROG), the die serialising
// them; the new page's program; the erase of the old block. The dies run in
// parallel: the RMW ends with the busiest.
inline uint64_t rmw_flash(uint64_t stripe, uint64_t offset) {
  uint64_t end = 0;
  for (uint64_t die = 0; die < stripe; ++die) {
    const uint64_t host = offset % stripe == die ? 1 : 0, copies = kPagesPerBlock - host;
    end = std::max(end, copies * (kTr + kXfer + kXfer + kTprog) + host * (kXfer + kTprog) + kErase);
  }
  return end;
}

}  // namespace ssd::block_test
