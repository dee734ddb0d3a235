// --powerfail.at: what a power cut loses, end to end through the CLI. The
// cases are built so the answer follows from the drive's parameters: a
// drive that acknowledges only programmed data loses nothing; a write cache
// of C pages kept full by a sequential stream loses exactly what it holds
// (C pages, or C - 1 at the instant a slot is between two writes), in one
// LBA range; capacitors that outlast the cache's drain lose nothing.
#include <gtest/gtest.h>

#include "tests/model/cli_util.h"

namespace {

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

TEST(PowerFail, LostListNeedsACut) {
  const auto r = run(kOneDie + "--powerfail.lost " + tmp("x.csv"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("powerfail.lost"), std::string::npos) << r.out;
}

}  // namespace
