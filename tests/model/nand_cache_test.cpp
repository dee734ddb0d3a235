// The die's cache register (nand.cache_program, nand.cache_read) on an idle
// one-die drive, from the parameters: 8 page programs (or reads) issued
// together run back to back on the die. Without the cache each holds the die
// for its transfer and its array time; with it, the next page's transfer
// hides under the array time of the one before (programs: tPROG > transfer)
// or the next tR under the transfer out (reads: transfer > tR), so the run
// ends 7 transfers (programs) or 7 tR (reads) earlier.
#include <gtest/gtest.h>

#include "tests/model/cli_util.h"

namespace nand_cache_test {

using ssdtest::read_json;
using ssdtest::run;
using ssdtest::tmp;

const std::string kOneDie =
    "--nand.channels=1 --nand.dies_per_channel=1 --nand.planes_per_die=1 --nand.blocks_per_plane=64 "
    "--nand.pages_per_block=64 --nand.t_read=50us --nand.t_prog=900us --nand.channel_rate=40MB/s --ftl.op=0.25 "
    "--workload.bs=4k --workload.iodepth=8 --workload.number_ios=8 --log-level=off ";
constexpr double kXferNs = 4096 / 40e6 * 1e9, kTrNs = 50e3;

uint64_t end_ns(const std::string& args, const std::string& name) {
  const std::string rep = tmp(name + ".json");
  const auto r = run(kOneDie + args + " --report " + rep);
  EXPECT_EQ(r.code, 0) << r.out;
  return read_json(rep)["device"]["simulated_time_ns"].get<uint64_t>();
}

TEST(NandCache, CacheProgramHidesTheNextTransferUnderTprog) {
  const uint64_t plain = end_ns("--precondition=none --workload.rw=write", "p0");
  const uint64_t cached = end_ns("--precondition=none --workload.rw=write --nand.cache_program=true", "p1");
  EXPECT_EQ(plain - cached, uint64_t(7 * kXferNs + 0.5));
}

TEST(NandCache, CacheReadHidesTheNextTrUnderTheTransfer) {
  const uint64_t plain = end_ns("--precondition=seq-fill --workload.rw=read", "r0");
  const uint64_t cached = end_ns("--precondition=seq-fill --workload.rw=read --nand.cache_read=true", "r1");
  EXPECT_EQ(plain - cached, uint64_t(7 * kTrNs + 0.5));
}

TEST(NandCache, OffByDefaultChangesNothing) {
  EXPECT_EQ(end_ns("--precondition=none --workload.rw=write", "d0"),
            end_ns("--precondition=none --workload.rw=write --nand.cache_program=false --nand.cache_read=false", "d1"));
}

}  // namespace nand_cache_test

