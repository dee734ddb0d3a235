// `ssdsim --ftl.plugin`: the example plug-in listed, documented in --help,
// its option refused for another FTL, and a run on it with every read
// checked; libraries that are not plug-ins refused with one line naming the
// file and the cause (exit 2).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "model/ftl/ftl.h"
#include "tests/model/cli_util.h"

namespace plugin_cli_test {

using ssdtest::run;

const std::string kLoad = std::string("--ftl.plugin ") + PLUGIN;

// Exit 2 and a single line "ssdsim: error: ..." holding every one of `parts`.
void expect_refused(const ssdtest::Result& r, std::initializer_list<std::string> parts) {
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out.rfind("ssdsim: error: ", 0), 0u) << r.out;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "not one line:\n" << r.out;
  for (const std::string& p : parts) EXPECT_NE(r.out.find(p), std::string::npos) << "no '" << p << "' in " << r.out;
}

TEST(PluginCli, ListFtlsShowsThePluginsFtlWithItsLine) {
  const auto r = run(kLoad + " --list-ftls");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(("\n" + r.out).find("\ncircular   page mapping, each die a circular log, FIFO GC (example plug-in)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("page "), std::string::npos) << "the built-in FTLs are still there:\n" << r.out;
  // Without the plug-in it is not there.
  EXPECT_EQ(run("--list-ftls").out.find("circular"), std::string::npos);
}

TEST(PluginCli, HelpShowsThePluginsOption) {
  const auto r = run("--help " + kLoad);  // the plug-in after --help: it is found wherever it is
  ASSERT_EQ(r.code, 0) << r.out;
  const size_t at = r.out.find("--ftl.circular_idle_free");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
  EXPECT_NE(line.find("[ftl.name=circular]"), std::string::npos) << line;
  EXPECT_EQ(run("--help").out.find("circular_idle_free"), std::string::npos);
}

TEST(PluginCli, ItsOptionWithoutItsFtlIsRefused) {
  expect_refused(run(kLoad + " --ftl.circular_idle_free=2 --workload.number_ios=10"),
                 {"--ftl.circular_idle_free", "applies to ftl.name=circular, not 'page'"});
  // Without the plug-in the option does not exist at all.
  expect_refused(run("--ftl.circular_idle_free=2 --workload.number_ios=10"), {"ftl.circular_idle_free"});
  // An idle-time option (FtlOptionSpec::idle_time) without idle time would change nothing.
  expect_refused(run(kLoad + " --ftl.name=circular --ftl.circular_idle_free=2 --workload.number_ios=10"),
                 {"--ftl.circular_idle_free", "only matters with idle-time work: set ftl.idle_after too"});
}

TEST(PluginCli, RunsWithEveryReadChecked) {
  // 2 dies x 64 blocks x 32 pages (16 MiB): preconditioned with random
  // overwrites, so GC has run, then mixed random IO, the plug-in's option set.
  const std::string report = ssdtest::tmp("plugin_report.json");
  const auto r = run(kLoad + " --ftl.name=circular --ftl.circular_idle_free=3 --ftl.idle_after=1ms --check.content=true"
                     " --nand.channels=2 --nand.dies_per_channel=1 --nand.planes_per_die=1"
                     " --nand.blocks_per_plane=64 --nand.pages_per_block=32 --ftl.op=0.25"
                     " --precondition=used --workload.rw=randrw --workload.number_ios=4000"
                     " --report " + report);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = ssdtest::read_json(report);
  const auto& dev = j["device"];
  EXPECT_EQ(dev["ftl"]["name"], "circular");
  EXPECT_EQ(dev["ftl"]["stats"]["fifo_full_victims"]["unit"], "count");
  EXPECT_TRUE(dev["ftl"]["stats"].contains("idle_gc_runs"));
  EXPECT_EQ(j["options"]["ftl.circular_idle_free"], "3");
  // Every page the host read was compared with what it last wrote: 4 KiB
  // IOs on 4 KiB pages, one page per read.
  EXPECT_EQ(dev["content_check"]["pages_checked"], j["jobs"][0]["read"]["total_ios"]);
  EXPECT_GT(dev["content_check"]["pages_checked"].get<uint64_t>(), 1000u);
  EXPECT_GT(dev["gc_runs"].get<uint64_t>(), 0u) << "the timed phase ran no GC";
}

TEST(PluginCli, IdleWorkRunsThroughTheFirmwareWithEveryReadChecked) {
  // One slot, 2 ms of think time after each IO: the host is idle for longer
  // than ftl.idle_after, so the firmware asks the plug-in for background
  // work, and after preconditioning every die is below the idle target.
  const std::string job = ssdtest::tmp("plugin_idle.fio"), report = ssdtest::tmp("plugin_idle.json");
  std::ofstream(job) << "[idle]\nrw=randrw\nbs=4k\niodepth=1\nthinktime=2000\nnumber_ios=300\n";
  const auto r = run(kLoad + " --ftl.name=circular --ftl.circular_idle_free=4 --ftl.idle_after=500us"
                     " --check.content=true --nand.channels=2 --nand.dies_per_channel=1 --nand.planes_per_die=1"
                     " --nand.blocks_per_plane=64 --nand.pages_per_block=32 --ftl.op=0.25 --precondition=used"
                     " --job " + job + " --report " + report);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = ssdtest::read_json(report);
  const auto& dev = j["device"];
  // Each slice the plug-in hands out reclaims one victim: the firmware's
  // count of slices run and the plug-in's own count agree.
  const double idle_runs = dev["ftl"]["stats"]["idle_gc_runs"]["value"];
  EXPECT_GT(idle_runs, 0);
  EXPECT_EQ(idle_runs, dev["background_slices"].get<double>());
  EXPECT_EQ(dev["content_check"]["pages_checked"], j["jobs"][0]["read"]["total_ios"]);
}

TEST(PluginCli, AnFtlWithoutCheckpointsCannotSaveAState) {
  // The example keeps the default Ftl::checkpoint ("not supported").
  const auto r = run(kLoad + " --ftl.name=circular --nand.channels=2 --nand.dies_per_channel=1"
                     " --nand.planes_per_die=1 --nand.blocks_per_plane=64 --nand.pages_per_block=32 --ftl.op=0.25"
                     " --state fill --workload.number_ios=10 --save-state " + ssdtest::tmp("circular.bin"));
  expect_refused(r, {"'--save-state'", "ftl.name=circular"});
}

TEST(PluginCli, AnFtlWithoutASteadyStateModelCannotTakeTheSteadyPhase) {
  // The example keeps the default Ftl::steady_state (none).
  const auto r = run(kLoad + " --ftl.name=circular --nand.channels=2 --nand.dies_per_channel=1"
                     " --nand.planes_per_die=1 --nand.blocks_per_plane=64 --nand.pages_per_block=32 --ftl.op=0.25"
                     " --state steady --workload.number_ios=10");
  expect_refused(r, {"'--state'", "ftl.name=circular", "no steady-state model"});
}

TEST(PluginCli, MissingFileIsRefused) {
  expect_refused(run("--ftl.plugin /nonexistent/libnothing.so --list-ftls"),
                 {"--ftl.plugin", "/nonexistent/libnothing.so: cannot load FTL plug-in", "No such file"});
}

TEST(PluginCli, EmptyPathIsRefused) {
  expect_refused(run("--ftl.plugin= --list-ftls"), {"--ftl.plugin", "no FTL plug-in file given"});
}

TEST(PluginCli, ARelativePathIsAFileNotALibrarySearch) {
  // dlopen would look a bare name up in the library path; the option is a file.
  const auto r = run("--ftl.plugin libc.so.6 --list-ftls");
  expect_refused(r, {"libc.so.6: cannot load FTL plug-in", "No such file"});
}

TEST(PluginCli, NotASharedLibraryIsRefused) {
  const std::string path = ssdtest::tmp("not_a_plugin.so");
  std::ofstream(path) << "not ELF\n";
  expect_refused(run("--ftl.plugin " + path + " --list-ftls"), {path + ": cannot load FTL plug-in"});
}

TEST(PluginCli, LibraryWithoutEntryPointsIsRefused) {
  expect_refused(run(std::string("--ftl.plugin=") + PLUGIN_NO_ENTRY + " --list-ftls"),
                 {std::string(PLUGIN_NO_ENTRY) + ": not an ssdsim FTL plug-in", "SSDSIM_FTL_PLUGIN"});
}

TEST(PluginCli, OtherApiVersionIsRefused) {
  expect_refused(run(std::string("--ftl.plugin ") + PLUGIN_API_999 + " --list-ftls"),
                 {std::string(PLUGIN_API_999) + ": FTL plug-in built for API version 999",
                  "this ssdsim has version " + std::to_string(ssd::ftl::kFtlApiVersion)});
}

TEST(PluginCli, LoadingItTwiceIsRefused) {
  expect_refused(run(kLoad + " " + kLoad + " --list-ftls"), {PLUGIN, "an FTL named 'circular' is already registered"});
}

TEST(PluginCli, PluginInAConfigFileIsRefused) {
  const std::string ini = ssdtest::tmp("plugin.ini");
  std::ofstream(ini) << "[ftl]\nplugin = " << PLUGIN << "\n";
  expect_refused(run("--config " + ini), {ini + ": line 2: 'ftl.plugin' is command line only"});
}

}  // namespace plugin_cli_test

