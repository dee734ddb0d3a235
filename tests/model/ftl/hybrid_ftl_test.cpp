// Hybrid log-block FTLs (bast, fast): merge kinds and their NAND ops on
// hand-computed sequences, TRIM skipped by merges, idle-time merges, bad
// log-block counts, BAST vs FAST on a random workload (plain C++ on
// FtlWork), and the exact latency of a write that forces a full merge on an
// idle drive (one simulation).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/ftl/ftl.h"
#include "model/host/io_source.h"
#include "model/nand/flash_media.h"
#include "model/sim/random.h"
#include "tests/model/timed_source.h"
#include "tests/model/ftl/hybrid_rig.h"
#include "tests/model/timing_drive.h"

namespace ssd {
namespace hybrid_ftl_test {

using Kind = ftl::FlashOp::Kind;
using namespace hybrid_test;

double stat(const ftl::Ftl& f, const std::string& name) {
  for (const auto& s : f.extra_stats())
    if (s.name == name) return s.value;
  ADD_FAILURE() << "no stat " << name;
  return -1;
}

struct OpCount {
  int reads = 0, programs = 0, erases = 0, host_programs = 0;
};
OpCount count(const ftl::FtlWork& w) {
  OpCount c;
  for (const auto& op : w.ops) {
    if (!op.gc) {
      c.host_programs += op.kind == Kind::Program;
      continue;
    }
    c.reads += op.kind == Kind::Read;
    c.programs += op.kind == Kind::Program;
    c.erases += op.kind == Kind::Erase;
  }
  return c;
}

// Merge ops are ordered: each copy's program after its read (a pad after
// the op before it), no read of a block after its erase, erases after every
// earlier op (barrier), the host page last and after them all.
void expect_ordered(const ftl::FtlWork& w, uint32_t pages_per_block) {
  std::vector<uint32_t> erased;
  for (size_t i = 0; i < w.ops.size(); ++i) {
    const auto& op = w.ops[i];
    const uint32_t block = op.ppn.v / pages_per_block;
    if (op.kind == Kind::Read) {
      EXPECT_EQ(std::count(erased.begin(), erased.end(), block), 0) << "op " << i << " reads an erased block";
    } else if (op.kind == Kind::Erase) {
      EXPECT_TRUE(op.barrier) << i;
      erased.push_back(block);
    } else if (op.gc) {
      // A copy after its read; a pad after the op before it (its block's
      // previous page, or that block's erase).
      if (op.after < 0) {
        EXPECT_EQ(i, 0u) << "program " << i << " unordered";
        continue;
      }
      if (w.ops[size_t(op.after)].kind == Kind::Read) {
        EXPECT_TRUE(w.ops[size_t(op.after)].gc) << i;
      } else {
        EXPECT_EQ(size_t(op.after), i - 1) << i;
      }
    }
  }
  if (w.ops.size() > 1) {
    EXPECT_FALSE(w.ops.back().gc);
    EXPECT_TRUE(w.ops.back().barrier);
  }
}

struct Rig {
  FlashGeometry g = tiny();
  FlashMedia media{g, /*track_content=*/true};
  std::unique_ptr<ftl::Ftl> f;
  ftl::FtlWork w;
  uint64_t version = 0;
  std::vector<uint64_t> shadow;
  Rig(const std::string& name, double log_blocks, bool idle_merge = true)
      : f(ftl::FtlRegistry::instance().create(name, params(g, log_blocks, idle_merge), media)),
        shadow(f->user_pages(), 0) {}
  // Write the LPNs in turn; `w` keeps the work of the last one.
  void write(std::vector<uint32_t> lpns) {
    for (uint32_t l : lpns) {
      w.clear();
      f->write(Lpn(l), ++version, w);
      shadow[l] = version;
    }
  }
  void check() {
    f->check_consistency();
    for (uint32_t l = 0; l < shadow.size(); ++l) {
      ftl::FtlWork r;
      f->read(Lpn(l), r);
      PageContent c;
      ASSERT_EQ(r.returns(media, c), shadow[l] != 0) << "LPN " << l;
      if (shadow[l]) {
        EXPECT_EQ(c.version, shadow[l]) << "LPN " << l;
      }
    }
  }
};

TEST(Bast, InOrderRewriteOfALogicalBlockIsASwitchMerge) {
  Rig r("bast", 2);
  // 0..3 fill logical block 0's log in order. The next write to it finds the
  // log full: switch #1 (the log becomes the data block; there was none to
  // erase, so no op). 0..3 again fill a new log in order; the write of 0
  // after them: switch #2, which erases switch #1's block (1 erase, no
  // copies), then the host page.
  r.write({0, 1, 2, 3, 0, 1, 2, 3, 0});
  const OpCount c = count(r.w);
  EXPECT_EQ(c.reads, 0);
  EXPECT_EQ(c.programs, 0);
  EXPECT_EQ(c.erases, 1);
  EXPECT_EQ(c.host_programs, 1);
  expect_ordered(r.w, 4);
  EXPECT_EQ(stat(*r.f, "switch_merges"), 2);
  EXPECT_EQ(stat(*r.f, "partial_merges"), 0);
  EXPECT_EQ(stat(*r.f, "full_merges"), 0);
  EXPECT_EQ(stat(*r.f, "merge_pages_copied"), 0);
  EXPECT_EQ(r.f->stats().write_amplification(), 1.0);
  r.check();
}

TEST(Bast, SequentialPrefixUnderPressureIsAPartialMerge) {
  Rig r("bast", 2);
  // 0..3 then 0 (switch): data block A holds 0..3, the log B holds 0; 1
  // continues it in order. Writing 4 opens a second log (the pool of 2 is
  // now full); writing 8 needs a third: the oldest log (B, prefix 0,1) is
  // merged partially: offsets 2 and 3 copied from A into B (2 reads, 2
  // programs), A erased (1 erase); then 8's page.
  r.write({0, 1, 2, 3, 0, 1, 4, 8});
  const OpCount c = count(r.w);
  EXPECT_EQ(c.reads, 2);
  EXPECT_EQ(c.programs, 2);
  EXPECT_EQ(c.erases, 1);
  expect_ordered(r.w, 4);
  // The copies land at their own offsets of B, behind the prefix.
  const uint32_t b = r.f->lookup(Lpn(0)).v / 4;
  for (uint32_t l = 0; l < 4; ++l) EXPECT_EQ(r.f->lookup(Lpn(l)).v, b * 4 + l);
  EXPECT_EQ(stat(*r.f, "switch_merges"), 1);
  EXPECT_EQ(stat(*r.f, "partial_merges"), 1);
  EXPECT_EQ(stat(*r.f, "full_merges"), 0);
  EXPECT_EQ(stat(*r.f, "merge_pages_copied"), 2);
  EXPECT_EQ(stat(*r.f, "log_blocks_in_use"), 2);
  // 8 host pages, 10 flash pages.
  EXPECT_DOUBLE_EQ(r.f->stats().write_amplification(), 10.0 / 8.0);
  r.check();
}

TEST(Bast, RandomUpdatesForceFullMerges) {
  Rig r("bast", 2);
  // 0..3 then 1 (switch): A holds 0..3, log B holds 1; 1 again breaks the
  // order. 4 opens the second log; 8 evicts B: full merge of logical block
  // 0: its latest pages (0 from A, 1 from B, 2 and 3 from A) copied into a
  // fresh block (4 reads, 4 programs), A and B erased (2 erases).
  r.write({0, 1, 2, 3, 1, 1, 4, 8});
  OpCount c = count(r.w);
  EXPECT_EQ(c.reads, 4);
  EXPECT_EQ(c.programs, 4);
  EXPECT_EQ(c.erases, 2);
  expect_ordered(r.w, 4);
  EXPECT_EQ(stat(*r.f, "full_merges"), 1);
  EXPECT_EQ(stat(*r.f, "merge_pages_copied"), 4);
  // Then 5, 5: logical block 1's log (4, 5, 5) is out of order; 12 evicts
  // it: full merge of logical block 1, which has no data block yet: 4 and
  // 5 copied (2 reads, 2 programs), only the log erased; 6 and 7 were
  // never written and lie past the last page, so no pad.
  r.write({5, 5, 12});
  c = count(r.w);
  EXPECT_EQ(c.reads, 2);
  EXPECT_EQ(c.programs, 2);
  EXPECT_EQ(c.erases, 1);
  EXPECT_EQ(stat(*r.f, "full_merges"), 2);
  EXPECT_EQ(stat(*r.f, "merge_pages_copied"), 6);
  EXPECT_EQ(stat(*r.f, "merge_pages_padded"), 0);
  EXPECT_EQ(r.f->stats().gc_runs, 3u);  // the switch and the two full merges
  r.check();
}

TEST(Bast, MergesSkipTrimmedPages) {
  Rig r("bast", 2);
  // A holds 0..3 (after the switch), log B holds 0. Trim 2 and 3; 4 then 8
  // evict B: partial merge copies offset 1 only (1 read, 1 program), skips
  // the two trimmed pages (past the last valid one: no pad), erases A.
  r.write({0, 1, 2, 3, 0});
  for (uint32_t l : {2u, 3u}) r.f->trim(Lpn(l), r.w), r.shadow[l] = 0;
  r.write({4, 8});
  OpCount c = count(r.w);
  EXPECT_EQ(c.reads, 1);
  EXPECT_EQ(c.programs, 1);
  EXPECT_EQ(c.erases, 1);
  EXPECT_EQ(stat(*r.f, "partial_merges"), 1);
  EXPECT_EQ(stat(*r.f, "trimmed_pages_skipped"), 2);
  EXPECT_EQ(r.f->stats().trimmed_pages, 2u);
  r.check();
  // Logical block 1's log holds 4; write 7, 5, 6 (out of order, the log is
  // full), trim 5: 12 evicts the log: full merge of logical block 1 (no
  // data block yet) copies 4, 6 and 7, and programs a pad where 5 was (flash
  // programs a block in order): 3 reads, 4 programs, 1 erase (the log).
  r.write({7, 5, 6});
  r.f->trim(Lpn(5), r.w), r.shadow[5] = 0;
  r.write({12});
  c = count(r.w);
  EXPECT_EQ(c.reads, 3);
  EXPECT_EQ(c.programs, 4);
  EXPECT_EQ(c.erases, 1);
  expect_ordered(r.w, 4);
  EXPECT_EQ(stat(*r.f, "merge_pages_padded"), 1);
  EXPECT_EQ(stat(*r.f, "trimmed_pages_skipped"), 3);
  r.check();
}

TEST(Fast, NewSequentialRunPartiallyMergesThePreviousOne) {
  Rig r("fast", 2);  // one sequential log, one random log
  // 0..3 fill the sequential log in order; 4 starts a new run: switch
  // (data block A for logical block 0, nothing erased). 0 starts another:
  // the run (4) switches too (logical block 1 had no data block). 1
  // continues it; 8 starts a run: the run 0,1 is completed by a partial
  // merge: 2 and 3 copied from A (2 reads, 2 programs), A erased.
  r.write({0, 1, 2, 3, 4, 0, 1, 8});
  const OpCount c = count(r.w);
  EXPECT_EQ(c.reads, 2);
  EXPECT_EQ(c.programs, 2);
  EXPECT_EQ(c.erases, 1);
  expect_ordered(r.w, 4);
  EXPECT_EQ(stat(*r.f, "switch_merges"), 2);
  EXPECT_EQ(stat(*r.f, "partial_merges"), 1);
  EXPECT_EQ(stat(*r.f, "merge_pages_copied"), 2);
  r.check();
}

TEST(Fast, FullRandomLogMergesEveryLogicalBlockInIt) {
  Rig r("fast", 2);
  // 0..3 in the sequential log; 4 switches it (A = logical block 0) and
  // starts logical block 1's run S. 1, 6, 2, 1 go to the random log R (6
  // does not continue S: offset 2 after 1 page). 3 finds R full and the
  // random pool (1 block) exhausted: R is merged. Its valid pages belong to
  // logical block 1 (6) then 0 (2, 1): full merge of 1: 4 from S, a pad at
  // 5 (never written), 6 from R: 2 reads, 3 programs; no data block to
  // erase, but S now holds nothing valid: 1 erase. Full merge of 0: 0 and
  // 3 from A, 1 and 2 from R: 4 reads, 4 programs, A erased. Then R erased.
  // Total 6 reads, 7 programs, 3 erases.
  r.write({0, 1, 2, 3, 4, 1, 6, 2, 1, 3});
  const OpCount c = count(r.w);
  EXPECT_EQ(c.reads, 6);
  EXPECT_EQ(c.programs, 7);
  EXPECT_EQ(c.erases, 3);
  expect_ordered(r.w, 4);
  EXPECT_EQ(stat(*r.f, "full_merges"), 2);
  EXPECT_EQ(stat(*r.f, "switch_merges"), 1);
  EXPECT_EQ(stat(*r.f, "merge_pages_copied"), 6);
  EXPECT_EQ(stat(*r.f, "merge_pages_padded"), 1);
  EXPECT_EQ(stat(*r.f, "log_blocks_in_use"), 1);  // the new random log with 3
  r.check();
}

TEST(Hybrid, ReadsFindTheLogBeforeTheDataBlock) {
  for (const char* name : {"bast", "fast"}) {
    Rig r(name, 2);
    r.write({0, 1, 2, 3, 4, 2});  // 2's latest version is in a log, its old one in the data block
    ftl::FtlWork w;
    r.f->read(Lpn(2), w);
    ASSERT_EQ(w.ops.size(), 1u) << name;
    EXPECT_EQ(r.media.read(w.ops[0].ppn).version, r.shadow[2]) << name;
    EXPECT_EQ(w.map_reads, 2u) << name;  // block map entry and log page map
    r.check();
  }
}

TEST(Hybrid, IdleMergesEmptyTheLogPool) {
  for (const char* name : {"bast", "fast"}) {
    Rig r(name, 2);
    r.write({0, 1, 2, 3, 4, 9, 1});
    EXPECT_GT(stat(*r.f, "log_blocks_in_use"), 0) << name;
    int slices = 0;
    for (ftl::FtlWork w; r.f->background(w); w.clear()) {
      ++slices;
      for (const auto& op : w.ops) EXPECT_TRUE(op.gc) << name;
      ASSERT_LT(slices, 10) << name;
    }
    EXPECT_GT(slices, 0) << name;
    EXPECT_EQ(stat(*r.f, "log_blocks_in_use"), 0) << name;
    r.check();
    Rig off(name, 2, /*idle_merge=*/false);
    off.write({0, 1, 2, 3, 4, 9, 1});
    ftl::FtlWork w;
    EXPECT_FALSE(off.f->background(w)) << name;
  }
}

TEST(Hybrid, LogBlockCountBeyondTheSpareOrZeroIsRefused) {
  const FlashGeometry g = tiny();
  FlashMedia media(g, false);
  for (const char* name : {"bast", "fast"}) {
    // 3 spare blocks per die: 2 log blocks at most.
    try {
      ftl::FtlRegistry::instance().create(name, params(g, 3), media);
      ADD_FAILURE() << name << " accepted 3 log blocks";
    } catch (const ftl::FtlConfigError& e) {
      EXPECT_EQ(e.key, "ftl.log_blocks");
      EXPECT_NE(std::string(e.what()).find("ftl.log_blocks=3 exceeds the 3 spare blocks per die"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("at most 2"), std::string::npos) << e.what();
    }
    try {
      ftl::FtlRegistry::instance().create(name, params(g, 0), media);
      ADD_FAILURE() << name << " accepted 0 log blocks";
    } catch (const ftl::FtlConfigError& e) {
      EXPECT_EQ(e.key, "ftl.log_blocks");
      EXPECT_NE(std::string(e.what()).find("ftl.log_blocks=0"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(ftl::FtlRegistry::instance().create(name, params(g, 2), media));
  }
  // FAST needs a sequential and a random log block.
  EXPECT_THROW(ftl::FtlRegistry::instance().create("fast", params(g, 1), media), ftl::FtlConfigError);
  EXPECT_NO_THROW(ftl::FtlRegistry::instance().create("bast", params(g, 1), media));
}

TEST(Hybrid, MapBytesCountBlockMapAndLogPageMaps) {
  const FlashGeometry g = tiny();
  FlashMedia media(g, false);
  auto f = ftl::FtlRegistry::instance().create("bast", params(g, 2), media);
  // 13 block-map entries, 2 log blocks x (4 page entries + owner), 4 bytes each.
  EXPECT_EQ(f->map_bytes(), (13u + 2u * 5u) * 4u);
}

struct Wa {
  double wa, full;
};
Wa random_wa(const std::string& name) {
  // 2 dies x 64 blocks x 16 pages, 25% spare, 4 log blocks per die: fill,
  // then 20000 random single-page writes.
  FlashGeometry g;
  g.channels = 2, g.dies_per_channel = 1, g.planes_per_die = 1, g.blocks_per_plane = 64, g.pages_per_block = 16;
  FlashMedia media(g, false);
  auto f = ftl::FtlRegistry::instance().create(name, params(g, 4), media);
  ftl::FtlWork w;
  const uint64_t n = f->user_pages();
  for (uint64_t l = 0; l < n; ++l) w.clear(), f->write(Lpn(uint32_t(l)), 1, w);
  f->reset_stats();
  Random rng(5);
  for (int i = 0; i < 20000; ++i) w.clear(), f->write(Lpn(uint32_t(rng.below(n))), 2, w);
  f->check_consistency();
  return {f->stats().write_amplification(), stat(*f, "full_merges")};
}

TEST(Hybrid, FastMergesLessThanBastOnRandomWrites) {
  // BAST gives a log block to each logical block: with 4 logs per die and
  // ~52 logical blocks per die, a random write almost always needs a new log
  // and evicts one holding about one page, whose full merge copies the whole
  // logical block. FAST shares its 3 random logs: a logical block's merge
  // takes along every update it received over the last 3 x 16 writes to the
  // die, so fewer merges serve the same writes and less is copied.
  const Wa bast = random_wa("bast"), fast = random_wa("fast");
  RecordProperty("bast_wa", std::to_string(bast.wa));
  RecordProperty("fast_wa", std::to_string(fast.wa));
  EXPECT_GT(bast.wa, 8.0);  // merges really ran: about a logical block copied per write
  EXPECT_LT(fast.full, 0.8 * bast.full);
  EXPECT_LT(fast.wa, 0.8 * bast.wa);
}

// --- exact timing on an idle drive (one simulation) ---

using namespace ssdtest;

using Timed = ssdtest::TimedRequests;  // requests at fixed arrival times (open loop)

TEST(HybridTiming, WriteThatForcesAFullMergeWaitsForItsCopiesAndErases) {
  // One die, 4 pages per block (64 blocks, 25% spare: 13 spare, 4 logs).
  // LPNs 0..3 (in order), then 1, 0, 2, 3: the write of 1 switches the
  // first log into data block A (no flash op); the log B then holds 1, 0,
  // 2, 3, out of order. The last write (0) finds B full: full merge, 4
  // copies and 11 ops to issue (4 reads, 4 programs, 2 erases, the host
  // program), the erases of A and B barriers, then the host page into a
  // fresh log block.
  expect_full_merge_timing(1, {0, 1, 2, 3, 1, 0, 2, 3, 0});
}

TEST(HybridTiming, UsedThenLeftIdleMergesItsLogBlocks) {
  const Options opts = parse(drive({"--nand.channels=1", "--nand.dies_per_channel=1", "--nand.pages_per_block=4",
                                    "--precondition=none", "--ftl.name=bast", "--ftl.idle_after=1ms"}));
  Simulation sim(opts.config());
  // LPN 1 and LPN 5 open one log each (page 0 holding offset 1: not in
  // order). The host then stays quiet for a second, then sends a FLUSH
  // CACHE (no flash work; the run ends with the host's last completion):
  // two idle slices, each a full merge of one logical block: a pad at
  // offset 0, then the copy of offset 1.
  std::vector<HostRequest> reqs;
  for (uint64_t lpn : {1, 5}) {
    HostRequest q;
    q.op = ssdtlm::HostOp::Write, q.offset = lpn * 4096, q.bytes = 4096;
    reqs.push_back(q);
  }
  HostRequest flush;
  flush.op = ssdtlm::HostOp::Flush, flush.timed = true, flush.arrival = sc_core::sc_time(1, sc_core::SC_SEC);
  reqs.push_back(flush);
  Timed src(reqs);
  sim.run(&src, 1);
  const auto r = sim.report();
  const auto& s = r["device"]["ftl"]["stats"];
  EXPECT_EQ(r["device"]["background_slices"], 2);
  EXPECT_EQ(s["log_blocks_in_use"]["value"], 0.0);
  EXPECT_EQ(s["full_merges"]["value"], 2.0);
  EXPECT_EQ(s["merge_pages_copied"]["value"], 2.0);
  EXPECT_EQ(s["merge_pages_padded"]["value"], 2.0);
  // Per slice: 1 read, 2 programs (pad, copy), 1 erase (the log).
  EXPECT_EQ(r["device"]["channels"][0]["gc_reads"], 2);
  EXPECT_EQ(r["device"]["channels"][0]["gc_programs"], 4);
  EXPECT_EQ(r["device"]["channels"][0]["gc_erases"], 2);
}

}  // namespace hybrid_ftl_test

}  // namespace ssd
