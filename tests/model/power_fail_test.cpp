// --powerfail.at: what a power cut loses, end to end through the CLI. The
// cases are built so the answer follows from the drive's parameters: a
// drive that acknowledges only programmed data loses nothing; a write cache
// of C pages kept full by a sequential stream loses exactly what it holds
// (C pages, or C - 1 at the instant a slot is between two writes), in one
// LBA range; capacitors that outlast the cache's drain lose nothing. A
// replayed fio iolog's powerfail record cuts the power as --powerfail.at does.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/model/cli_util.h"

namespace power_fail_test {

using ssdtest::read_csv;
using ssdtest::read_json;
using ssdtest::run;
using ssdtest::tmp;

// One die: every program is 102.4 us over the bus + 900 us; the host writes
// 4 KiB pages back to back at QD1, far faster than that once cached.
const std::string kOneDie =
    "--nand.channels=1 --nand.dies_per_channel=1 --nand.planes_per_die=1 --nand.blocks_per_plane=64 "
    "--nand.pages_per_block=32 --nand.t_prog=900us --nand.channel_rate=40MB/s --ftl.op=0.25 --precondition=none "
    "--workload.bs=4k --workload.iodepth=1 --workload.number_ios=0 --workload.runtime=1s --log-level=off ";

nlohmann::json cut(const std::string& args, const std::string& name) {
  const std::string rep = tmp(name + ".json");
  const auto r = run(kOneDie + args + " --powerfail.at=40ms --report " + rep);
  EXPECT_EQ(r.code, 0) << r.out;
  return read_json(rep);
}

TEST(PowerFail, WriteThroughDriveLosesNothingAcknowledged) {
  const auto j = cut("--workload.rw=randwrite", "wt");
  const auto& pf = j["powerfail"];
  EXPECT_EQ(pf["lost_pages"], 0);
  // Every write the host saw complete by the cut is acknowledged, and 40 ms
  // of 1.0 ms programs leave about 39 of them.
  EXPECT_EQ(pf["acknowledged_writes"], j["write"]["total_ios"]);
  EXPECT_NEAR(pf["acknowledged_writes"].get<double>(), 40e-3 / (900e-6 + 4096 / 40e6), 2.0);
  // The workload (1 s) had not ended: the report says the cut stopped it.
  EXPECT_EQ(j["device"]["stop_reason"], "power cut");
}

TEST(PowerFail, AWorkloadDoneBeforeTheCutSaysSo) {
  // 3 writes of about 1 ms each end long before a cut at 40 ms.
  std::string args = kOneDie;
  args.replace(args.find("--workload.number_ios=0 --workload.runtime=1s"),
               std::string("--workload.number_ios=0 --workload.runtime=1s").size(), "--workload.number_ios=3");
  const std::string rep = tmp("done-first.json");
  const auto r = run(args + " --workload.rw=write --powerfail.at=40ms --report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(rep);
  EXPECT_EQ(j["write"]["total_ios"], 3);
  EXPECT_EQ(j["device"]["stop_reason"], "workload done");
  EXPECT_EQ(j["powerfail"]["acknowledged_writes"], 3);
}

TEST(PowerFail, FullWriteCacheLosesWhatItHoldsInOneRange) {
  const std::string lost = tmp("lost.csv");
  const auto j = cut("--workload.rw=write --dram.write_cache=64k --powerfail.lost " + lost, "wb");
  const auto& pf = j["powerfail"];
  const uint64_t pages = pf["lost_pages"].get<uint64_t>();
  EXPECT_GE(pages, 15u);  // 16 slots of 4 KiB, each held until its program ends
  EXPECT_LE(pages, 16u);
  EXPECT_EQ(pf["lost_bytes"].get<uint64_t>(), pages * 4096);
  EXPECT_EQ(pf["lost_ranges"], 1);  // a sequential stream: the newest pages, contiguous
  const auto rows = read_csv(lost);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1][1], std::to_string(pages * 4096));
  // The lost range ends where the acknowledged writes end.
  EXPECT_EQ(std::stoull(rows[1][0]) + pages * 4096, pf["acknowledged_writes"].get<uint64_t>() * 4096);
}

TEST(PowerFail, SramWriteBufferIsVolatileAsTheDramCacheIs) {
  // A DRAM-less controller's 16-page SRAM write buffer, kept full by the
  // stream: it loses what it holds, as the DRAM cache above does.
  const auto j = cut("--workload.rw=write --dram.size=0 --controller.sram_write_buffer=64k", "sram");
  const uint64_t pages = j["powerfail"]["lost_pages"].get<uint64_t>();
  EXPECT_GE(pages, 15u);
  EXPECT_LE(pages, 16u);
  EXPECT_EQ(j["powerfail"]["lost_ranges"], 1);
}

TEST(PowerFail, CapacitorsThatOutlastTheDrainLoseNothing) {
  // 16 cached pages drain in 16 x 1.0024 ms < 17 ms of hold-up; 10 ms is not enough.
  EXPECT_EQ(cut("--workload.rw=write --dram.write_cache=64k --dram.plp=17ms", "plp")["powerfail"]["lost_pages"], 0);
  EXPECT_GT(cut("--workload.rw=write --dram.write_cache=64k --dram.plp=10ms", "plp2")["powerfail"]["lost_pages"], 0);
}

TEST(PowerFail, FtlBufferIsVolatileToo) {
  // The block FTL acknowledges from its 4-page SRAM buffer: up to 4 pages lost.
  const auto j = cut("--workload.rw=write --ftl.name=block --dram.size=0 --ftl.block.buffer=4", "blk");
  EXPECT_LE(j["powerfail"]["lost_pages"].get<uint64_t>(), 4u);
  EXPECT_EQ(j["powerfail"]["check"], "passed");
}

TEST(PowerFail, ABufferFlushedByTheSameWriteIsStillVolatile) {
  // A block FTL whose buffer holds a whole logical block: a random write to
  // another block programs the held pages, then holds its own. The drive
  // acknowledges the held page before it is on flash, so a cut may lose it
  // (the last write at most: one page), and must not be taken for a
  // write-through drive that lost data (an internal error before).
  const std::string rep = tmp("flushed.json");
  const auto r = run(kOneDie + "--precondition=seq-fill --ftl.name=block --ftl.block.buffer=32 "
                               "--workload.rw=randwrite --powerfail.at=40ms --report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto pf = read_json(rep)["powerfail"];
  EXPECT_EQ(pf["check"], "passed");
  EXPECT_LE(pf["lost_pages"].get<uint64_t>(), 1u);
}

TEST(PowerFail, TranslationPagesAreNotHostData) {
  // DFTL with a one-entry map cache writes a translation page back for
  // nearly every write. Those pages are numbered after the user's: they are
  // not host data, so the analysis counts only the data programs (host pages
  // and GC copies) and never indexes its per-LPN tables with them (it wrote
  // past their end, and a later LPN then read as acknowledged with the
  // translation page's version: an internal error).
  const std::string rep = tmp("dftl.json");
  const auto r = run(kOneDie + "--precondition=seq-fill --ftl.name=dftl --ftl.map_cache=4B --workload.rw=randwrite "
                               "--powerfail.at=40ms --report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(rep);
  const auto& d = j["device"];
  const uint64_t tpages = d["ftl"]["stats"]["translation_page_writes"]["value"].get<uint64_t>();
  ASSERT_GT(tpages, 0u);
  EXPECT_EQ(j["powerfail"]["host_programs"].get<uint64_t>(), d["flash_pages_written"].get<uint64_t>() - tpages);
  EXPECT_EQ(j["powerfail"]["lost_pages"], 0);  // write-through: nothing acknowledged is lost
}

TEST(PowerFail, LostListNeedsACut) {
  const auto r = run(kOneDie + "--powerfail.lost " + tmp("x.csv"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("powerfail.lost"), std::string::npos) << r.out;
}

// A fio v3 iolog: 4 KiB sequential writes every 300 us, for 60 ms; with
// `cut_us`, a powerfail record at that time among them.
std::string iolog(const std::string& name, uint64_t cut_us, bool second_cut = false) {
  const std::string path = tmp(name + ".iolog");
  std::ofstream f(path);
  f << "fio version 3 iolog\n0 /dev/sdb add\n0 /dev/sdb open\n";
  bool cut = false;
  for (uint64_t i = 0, t = 0; t < 60000; ++i, t += 300) {
    if (cut_us && !cut && t > cut_us) {
      f << cut_us << " /dev/sdb powerfail\n";
      if (second_cut) f << cut_us << " /dev/sdb powerfail\n";
      cut = true;
    }
    f << t << " /dev/sdb write " << i * 4096 << " 4096\n";
  }
  f << "60000 /dev/sdb close\n";
  return path;
}

std::string replay_args() {
  // kOneDie without its synthetic workload (refused with --trace).
  std::string a = kOneDie;
  return a.substr(0, a.find("--workload.bs")) + "--log-level=off --dram.write_cache=64k --trace.iodepth=4 ";
}

TEST(PowerFail, ATracesPowerfailRecordCutsAsPowerfailAtDoes) {
  // The cut at 40.15 ms from the trace's record, and from the option on the
  // same trace without it: the same analysis and the same lost ranges.
  const std::string a = tmp("rec.json"), b = tmp("opt.json"), lost_a = tmp("rec.csv"), lost_b = tmp("opt.csv");
  auto r = run(replay_args() + "--trace " + iolog("with_cut", 40150) + " --powerfail.at=trace --powerfail.lost " +
               lost_a + " --report " + a);
  ASSERT_EQ(r.code, 0) << r.out;
  r = run(replay_args() + "--trace " + iolog("without_cut", 0) + " --powerfail.at=40150us --powerfail.lost " + lost_b +
          " --report " + b);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto ja = read_json(a), jb = read_json(b);
  EXPECT_EQ(ja["powerfail"], jb["powerfail"]);
  EXPECT_EQ(ja["write"]["total_ios"], jb["write"]["total_ios"]);  // the run ends at the cut either way
  EXPECT_EQ(ja["powerfail"]["at_ns"], 40150000);
  EXPECT_GT(ja["powerfail"]["lost_pages"].get<uint64_t>(), 0u);  // the write cache was full: not vacuous
  EXPECT_EQ(read_csv(lost_a), read_csv(lost_b));
  // Every record read is accounted for (the host, behind, never reached
  // the powerfail record: the run ended at the cut).
  EXPECT_EQ(ja["trace"]["power_cuts"], 0);
  EXPECT_EQ(ja["trace"]["records_read"].get<uint64_t>(),
            ja["trace"]["replayed"].get<uint64_t>() + ja["trace"]["filtered"].get<uint64_t>());
}

TEST(PowerFail, AfapTheCutComesWhenTheHostReachesTheRecord) {
  // Closed loop at QD1: the record after the 134th write is reached as that
  // write completes, so exactly the 134 writes before it were acknowledged.
  const std::string rep = tmp("afap.json");
  const auto r = run(replay_args() + "--trace " + iolog("afap", 40150) +
                     " --trace.mode=afap --trace.iodepth=1 --powerfail.at=trace --report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(rep);
  EXPECT_EQ(j["powerfail"]["acknowledged_writes"], 40150 / 300 + 1);
  EXPECT_EQ(j["trace"]["power_cuts"], 1);
  EXPECT_EQ(j["trace"]["records_read"].get<uint64_t>(),
            j["trace"]["replayed"].get<uint64_t>() + j["trace"]["filtered"].get<uint64_t>() + 1);
}

TEST(PowerFail, APowerfailRecordIsNeverIgnored) {
  const auto refused = [](const std::string& args, const std::string& says) {
    const auto r = run(replay_args() + args);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find(says), std::string::npos) << r.out;
  };
  // Without --powerfail.at=trace: bad input at its line (line 138: the
  // header, add, open and 134 writes before it).
  refused("--trace " + iolog("no_option", 40150), "no_option.iolog: line 138: a powerfail record needs --powerfail.at=trace");
  // (Closed loop: a timed replay ends at the first, before reading on.)
  refused("--trace " + iolog("twice", 40150, true) + " --trace.mode=afap --powerfail.at=trace",
          "a second powerfail record");
  refused("--trace " + iolog("none", 0) + " --powerfail.at=trace", "has no powerfail record");
  const auto r = run(kOneDie + "--powerfail.at=trace");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("needs --trace"), std::string::npos) << r.out;
  const auto typo = run(kOneDie + "--powerfail.at=tarce");  // says what the option takes
  EXPECT_EQ(typo.code, 2);
  EXPECT_NE(typo.out.find("or 'trace'; not 'tarce'"), std::string::npos) << typo.out;
}

}  // namespace power_fail_test

