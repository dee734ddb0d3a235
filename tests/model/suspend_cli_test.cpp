// nand.suspend end to end through the CLI, where a case needs the same run
// with suspend off and on: only a host read's reads suspend. A write's own
// map-page read (DFTL: an 8 KiB write across two translation pages loads
// the second while the first page programs on the only die) must not
// suspend the write's own program: the write's completion, not yet
// answered, would be postponed from a stale time (it was, by 2.6 ms).
#include <gtest/gtest.h>

#include <fstream>

#include "tests/model/cli_util.h"

namespace suspend_cli_test {

using ssdtest::read_json;
using ssdtest::run;
using ssdtest::tmp;

nlohmann::json dftl_write(bool suspend, const std::string& name) {
  const std::string trace = tmp(name + ".iolog"), rep = tmp(name + ".json");
  std::ofstream(trace) << "fio version 3 iolog\n0 /dev/sdb add\n0 /dev/sdb write " << 1023 * 4096 << " 8192\n";
  const auto r = run("--nand.channels=1 --nand.dies_per_channel=1 --nand.blocks_per_plane=256 "
                     "--nand.pages_per_block=64 --ftl.name=dftl --ftl.map_cache=64B --precondition=seq-fill "
                     "--log-level=off --trace " + trace + (suspend ? " --nand.suspend=true" : "") + " --report " + rep);
  EXPECT_EQ(r.code, 0) << r.out;
  return read_json(rep);
}

TEST(SuspendCli, AWritesOwnMapPageReadDoesNotSuspendItsProgram) {
  const auto off = dftl_write(false, "off"), on = dftl_write(true, "on");
  EXPECT_EQ(off["device"]["channels"][0]["reads"], 3);  // the map-page reads are there to suspend
  EXPECT_EQ(on["device"]["channels"][0]["suspends"], 0);
  EXPECT_EQ(on["write"]["lat_ns"]["max"], off["write"]["lat_ns"]["max"]);
}

}  // namespace suspend_cli_test

