// ftl.idle_dies: the idle-time firmware keeps up to N slices of background
// GC in flight, each on its own die. On a drive whose dies have channels of
// their own (no shared bus), the same background work on each die (it
// depends on the die's own state) takes the sum of the dies' times with one
// loop and the longest die's time with a loop per die; the functional
// `idle:TIME` state phase gives each die its share of the time; content
// checks hold throughout.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "tests/model/cli_util.h"

namespace ssdtest {
namespace idle_dies_test {

constexpr int kDies = 4;
// NAND times of the drive below, in ms: one GC move is a tR, the page out
// and back over the 40 MB/s bus, and a tPROG.
constexpr double kMoveMs = 0.050 + 2 * 4096 / 40e6 * 1e3 + 0.900;

// Four dies, a channel each, filled and overwritten once (the page FTL's
// steady state); idle-time GC until 24 of a die's 64 blocks are free:
// about 3.6 s of work on every die.
std::string drive(int loops) {
  return "--nand.channels=" + std::to_string(kDies) +
         " --nand.dies_per_channel=1 --nand.planes_per_die=1 --nand.blocks_per_plane=64 --nand.pages_per_block=64"
         " --nand.t_read=50us --nand.t_prog=900us --nand.t_erase=2ms --nand.channel_rate=40MB/s --ftl.op=0.25"
         " --ftl.gc.bg_threshold=24 --ftl.idle_after=100us --ftl.idle_dies=" +
         std::to_string(loops) + " ";
}

// A write at 0, a read of it at 200 ms (fio iolog v3 times are µs), and a
// second read at `end_s`, the host's last command: the background work runs
// until then (the run ends with the host's last completion); the report.
nlohmann::json quiet_run(int loops, int end_s) {
  const std::string name = "quiet" + std::to_string(loops) + "-" + std::to_string(end_s);
  const std::string log = tmp(name + ".iolog"), rep = tmp(name + ".json");
  std::ofstream(log) << "fio version 3 iolog\n0 /dev/x add\n0 /dev/x open\n0 /dev/x write 28672 4096\n"
                        "200000 /dev/x read 28672 4096\n"
                     << end_s * 1000000 << " /dev/x read 28672 4096\n"
                     << end_s * 1000000 << " /dev/x close\n";
  const auto r = run(drive(loops) + "--precondition=used --check.content=true --trace " + log + " --report " + rep);
  EXPECT_EQ(r.code, 0) << r.out;
  return read_json(rep);
}

TEST(IdleDies, ALoopPerDieTakesTheLongestDiesTimeNotTheSum) {
  // Every die has about 3.6 s of idle-time GC: one op at a time across the
  // drive takes their sum (about 14.4 s), a loop per die the longest.
  const auto all = quiet_run(kDies, 8), one = quiet_run(1, 8), one_done = quiet_run(1, 30);
  const auto moved = [](const nlohmann::json& r) {
    return r["device"]["ftl"]["stats"]["background_gc_pages_moved"]["value"].get<double>();
  };
  std::vector<double> busy;
  for (int d = 0; d < kDies; ++d) {
    busy.push_back(one_done["device"]["dies"][d]["busy_ns"].get<double>());
    // The same work on each die either way (three host ops among it).
    EXPECT_EQ(all["device"]["dies"][d]["busy_ns"].get<double>(), busy[d]) << "die " << d;
  }
  const double sum = busy[0] + busy[1] + busy[2] + busy[3], longest = *std::max_element(busy.begin(), busy.end());
  // 8 s lies between the two: every die at once is done by then, one op at
  // a time is not (and is by 30 s).
  ASSERT_LT(longest, 0.8 * 8e9);
  ASSERT_GT(sum, 1.2 * 8e9);
  ASSERT_LT(sum, 0.8 * 30e9);
  EXPECT_EQ(moved(all), moved(one_done));
  EXPECT_LT(moved(one), 0.8 * moved(one_done));
  // One loop moved pages at the rate of one die: a move each kMoveMs, less
  // the firmware's cycles per op (within 5 %).
  EXPECT_NEAR(moved(one), 8e3 / kMoveMs, 0.05 * 8e3 / kMoveMs);
  EXPECT_EQ(all["device"]["content_check"]["pages_checked"], 2);  // the reads saw what was written, after the moves
}

// The same drive idle for 2 s as a functional state phase (each die has
// more work than that): GC pages moved.
double idle_phase(int loops) {
  const std::string rep = tmp("phase" + std::to_string(loops) + ".json");
  const auto r =
      run(drive(loops) + "--state 'secure-erase, fill, randwrite:4k:1x, idle:2s' --workload.number_ios=1 --report " + rep);
  EXPECT_EQ(r.code, 0) << r.out;
  return read_json(rep)["state"]["phases"].back()["gc_pages_moved"].get<double>();
}

TEST(IdleDies, TheIdlePhaseGivesEachDieTheTime) {
  // One loop: 2 s of moves one after another (erases and the last slice's
  // overshoot within the 10 %); a loop per die: each die its 2 s.
  const double one = idle_phase(1), all = idle_phase(kDies);
  EXPECT_NEAR(one, 2000 / kMoveMs, 0.1 * 2000 / kMoveMs);
  EXPECT_NEAR(all, kDies * one, 0.1 * kDies * one);
}

TEST(IdleDies, NeedsIdleTimeWorkAndAtMostTheDrivesDies) {
  for (const std::string bad : {"--ftl.idle_dies=2", "--ftl.idle_after=1ms --ftl.idle_dies=5",
                                "--ftl.idle_after=1ms --ftl.idle_dies=0"}) {
    const auto r = run("--nand.channels=4 --nand.dies_per_channel=1 " + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
    EXPECT_NE(r.out.find("ftl.idle_dies"), std::string::npos) << r.out;
  }
}

}  // namespace idle_dies_test

}  // namespace ssdtest
