// Drive states as recipes (--state, model/controller/drive_state.h): each
// phase's effect on the page accounting, computed from the drive's user
// capacity; the shipped `torture` state is today's --precondition=used bit
// for bit; bad recipes are exit 2 naming --state.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "model/controller/drive_state.h"
#include "model/sim/random.h"
#include "tests/model/cli_util.h"

namespace state_test {

using ssdtest::read_json;
using ssdtest::run;
using ssdtest::tmp;

const std::string kDrive =
    "--nand.channels=2 --nand.dies_per_channel=2 --nand.planes_per_die=1 --nand.blocks_per_plane=128 "
    "--nand.pages_per_block=64 --ftl.op=0.25 --workload.rw=randrw --workload.number_ios=2000 --log-level=off ";

nlohmann::json with_state(const std::string& state, const std::string& extra = "") {
  const std::string rep = tmp("state.json");
  const auto r = run(kDrive + "--state \"" + state + "\" " + extra + " --report " + rep);
  EXPECT_EQ(r.code, 0) << r.out;
  return read_json(rep);
}

uint64_t user_pages(const nlohmann::json& j) { return j["device"]["user_capacity_bytes"].get<uint64_t>() / 4096; }

TEST(DriveState, TortureIsPreconditionUsedBitForBit) {
  const auto a = with_state("torture");
  const std::string rep = tmp("used.json");
  ASSERT_EQ(run(kDrive + "--precondition=used --report " + rep).code, 0);
  const auto b = read_json(rep);
  for (const char* k : {"read", "write"}) EXPECT_EQ(a[k], b[k]) << k;
  EXPECT_EQ(a["device"]["write_amplification"], b["device"]["write_amplification"]);
  EXPECT_EQ(a["device"]["erase_count"], b["device"]["erase_count"]);
}

TEST(DriveState, EachPhaseWritesWhatItSays) {
  const auto j =
      with_state("secure-erase,fill:128k,randwrite:4k:0.25x,randwrite:64k:0.5x,image:0.3x,trim:all", "--workload.rw=randread");
  const uint64_t n = user_pages(j);
  const auto& p = j["state"]["phases"];
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[0]["pages_written"], 0);
  EXPECT_EQ(p[1]["pages_written"], n);
  EXPECT_EQ(p[2]["pages_written"], uint64_t(0.25 * double(n)));
  // 64 KiB = 16 pages per write, until at least half the capacity is written.
  EXPECT_EQ(p[3]["pages_written"], (uint64_t(0.5 * double(n)) + 15) / 16 * 16);
  EXPECT_EQ(p[4]["pages_written"], uint64_t(0.3 * double(n)));
  EXPECT_EQ(p[5]["trimmed_pages"], n);
  // Everything trimmed: every timed read finds nothing mapped.
  EXPECT_EQ(j["device"]["unmapped_reads"], j["read"]["total_ios"]);
}

TEST(DriveState, PartialFillAndTrimWithoutTrimSupport) {
  const auto j = with_state("fill:128k:0.75x,trim:all", "--controller.trim=false --workload.rw=randread");
  EXPECT_EQ(j["state"]["phases"][0]["pages_written"], uint64_t(0.75 * double(user_pages(j))));
  EXPECT_EQ(j["state"]["phases"][1]["trimmed_pages"], 0);  // no TRIM support: nothing trimmed
}

TEST(DriveState, RandomPagesAreOnePageCommandsWhateverCameBefore) {
  // `randwrite:4k` after a 128 KiB fill must reach the FTL as the same
  // random pages given one command each (a trace phase of them does that):
  // not as more of the fill's commands (the page FTL would stripe them as
  // one command, the block FTL take them as a stream). The timed phase
  // after both states is then the same, IO for IO.
  for (const std::string ftl : {"page", "block"}) {
    SCOPED_TRACE(ftl);
    // Multi-plane: the page FTL gives each die two pages of a multi-page command.
    const std::string opts = "--ftl.name=" + ftl +
                             " --nand.planes_per_die=2 --nand.blocks_per_plane=64 --nand.multiplane=true"
                             " --workload.rw=randwrite";
    const auto a = with_state("fill:128k,randwrite:4k:0.2x", opts);
    const uint64_t n = user_pages(a), writes = uint64_t(0.2 * double(n));
    // The phase's pages: the first random phase's generator for --seed=1.
    ssd::Random rng(ssd::state_phase_seed(1, 0));
    const std::string f = tmp("random-pages.msr.csv");
    std::ofstream csv(f);
    uint64_t previous = UINT64_MAX;
    for (uint64_t i = 0; i < writes; ++i) {
      const uint64_t lpn = rng.below(n);
      ASSERT_NE(lpn, previous + 1) << "a page next to the one before continues it in a trace: another seed";
      csv << i + 1 << ",h,0,Write," << lpn * 4096 << ",4096,1\n";
      previous = lpn;
    }
    csv.close();
    const auto b = with_state("fill:128k,trace:" + f, opts);
    ASSERT_EQ(b["state"]["phases"][1]["pages_written"], writes);
    EXPECT_EQ(a["state"]["phases"][1]["gc_pages_moved"], b["state"]["phases"][1]["gc_pages_moved"]);
    EXPECT_EQ(a["write"]["iops"], b["write"]["iops"]);
    EXPECT_TRUE(a["write"] == b["write"]) << "the timed writes' statistics differ";
    EXPECT_EQ(a["device"]["write_amplification"], b["device"]["write_amplification"]);
  }
}

TEST(DriveState, SecureEraseStartsOver) {
  const auto j = with_state("fill,randwrite:4k:1x,secure-erase", "--workload.rw=randread");
  EXPECT_EQ(j["device"]["unmapped_reads"], j["read"]["total_ios"]);
  EXPECT_GT(j["device"]["erase_count"]["max"].get<uint64_t>(), 0u);  // the erase wore the blocks
}

TEST(DriveState, IdleLetsBackgroundGcReclaimSpace) {
  // After random overwrites, idle time lets the page FTL's background GC
  // refill the free-block pool: the timed random writes then wait less for
  // foreground GC. Same drive and firmware in both runs.
  const std::string fw = "--workload.rw=randwrite --ftl.gc.bg_threshold=40 --ftl.idle_after=10ms";
  const auto busy = with_state("fill,randwrite:4k:1x", fw);
  const auto rested = with_state("fill,randwrite:4k:1x,idle:60s", fw);
  const auto& idle = rested["state"]["phases"][2];
  EXPECT_GT(idle["background_slices"].get<uint64_t>(), 0u);
  EXPECT_GT(idle["gc_pages_moved"].get<uint64_t>(), 0u);
  EXPECT_LE(idle["idle_flash_s"].get<double>(), 60.0 + 1.0);  // at most one slice past the duration
  EXPECT_GT(rested["write"]["iops"].get<double>(), busy["write"]["iops"].get<double>() * 1.2);
  // A firmware without idle-time work (ftl.idle_after = 0) does nothing while idle.
  EXPECT_EQ(with_state("fill,randwrite:4k:1x,idle:60s")["state"]["phases"][2]["background_slices"], 0);
}

TEST(DriveState, NamedStatesAndFiles) {
  EXPECT_EQ(with_state("new")["state"]["phases"].size(), 0u);
  EXPECT_EQ(with_state("used-anthology")["state"]["phases"].size(), 4u);
  const std::string f = tmp("mine.ini");
  std::ofstream(f) << "# mine\n[state]\nphases = fill:1m, trim:all\n";
  const auto j = with_state(f);
  EXPECT_EQ(j["state"]["phases"][1]["trimmed_pages"], user_pages(j));
  // A binary built out of the source tree (cmake -B /elsewhere) finds the
  // shipped states too: here a copy of it, run where no configs/ is near.
  const std::string dir = tmp("elsewhere"), rep = tmp("elsewhere.json");
  std::filesystem::create_directories(dir + "/bin");
  std::filesystem::copy_file(SSDSIM_BIN, dir + "/bin/ssdsim");
  const int rc = std::system(("cd " + dir + " && bin/ssdsim " + kDrive + "--state torture --report " + rep +
                              " >/dev/null 2>&1").c_str());
  ASSERT_EQ(rc, 0);
  EXPECT_EQ(read_json(rep)["state"]["phases"].size(), 2u);
}

TEST(DriveState, BadRecipesAreExit2NamingTheOption) {
  for (const std::string bad : {"fill:0", "randwrite:4k", "image:-1x", "bogus", "trim:half", "idle:5", "trace:x", "trace:",
                                 "fill,,trim:all", "fill,", ",fill",
                                 // What the drive cannot hold: refused, not cut to fit.
                                 "fill:4k:2x", "fill:4k:1g", "fill:512m", "randwrite:512m:1x"}) {
    const auto r = run(kDrive + "--state " + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
    EXPECT_NE(r.out.find("--state"), std::string::npos) << r.out;
    EXPECT_EQ(ssdtest::program_lines(r.out), 1) << r.out;
  }
  const std::string f = tmp("bad.ini");
  std::ofstream(f) << "[state]\nphases = fill, oops\n";
  const auto r = run(kDrive + "--state " + f);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(f + ":2:"), std::string::npos) << r.out;
  // A second `phases` line would silently replace the first; none at all
  // would silently be a new drive.
  const std::string twice = tmp("twice.ini"), none = tmp("none.ini");
  std::ofstream(twice) << "[state]\nphases = fill\n# more\nphases = trim:all\n";
  std::ofstream(none) << "# nothing yet\n[state]\n";
  const auto r2 = run(kDrive + "--state " + twice);
  EXPECT_EQ(r2.code, 2);
  EXPECT_NE(r2.out.find(twice + ":4: 'phases' again (first on line 2)"), std::string::npos) << r2.out;
  const auto r3 = run(kDrive + "--state " + none);
  EXPECT_EQ(r3.code, 2);
  EXPECT_NE(r3.out.find(none + ": no 'phases"), std::string::npos) << r3.out;
  EXPECT_EQ(run(kDrive + "--state fill --precondition=used").code, 2);
}

TEST(DriveState, SteadyIsBuiltWithEveryReadCheckedAndDeterministic) {
  const auto a = with_state("steady", "--check.content=true --seed=4");
  ASSERT_EQ(a["state"]["phases"].size(), 1u);
  EXPECT_EQ(a["state"]["phases"][0]["pages_written"], 0);  // built, not written
  // Every user page is mapped: no timed read finds an unmapped page.
  EXPECT_EQ(a["device"]["unmapped_reads"], 0);
  EXPECT_EQ(a["write"], with_state("steady", "--check.content=true --seed=4")["write"]);
  EXPECT_NE(a["read"], with_state("steady", "--check.content=true --seed=5")["read"]);
}

// The block-mapped FTLs' steady state is written, but short: a fill and a
// few random writes per log slot (bast) or buffer (block) reach the state a
// capacity of random overwrites leaves: the same random-write IOPS and WA
// after it, every read checked.
TEST(DriveState, SteadyOfTheBlockMappedFtlsIsTheTortureState) {
  for (const std::string ftl : {"block", "bast"}) {
    const std::string extra = "--ftl.name=" + ftl + " --ftl.op=0.07 --workload.rw=randwrite --workload.number_ios=400";
    const auto steady = with_state("steady", extra + " --check.content=true");
    const auto torture = with_state("torture", extra);
    const double a = steady["write"]["iops"].get<double>(), b = torture["write"]["iops"].get<double>();
    EXPECT_NEAR(a, b, 0.005 * b) << ftl;
    const double wa = steady["device"]["write_amplification"].get<double>(),
                 wb = torture["device"]["write_amplification"].get<double>();
    EXPECT_NEAR(wa, wb, 0.005 * wb) << ftl;
    EXPECT_GT(wb, 10) << ftl;  // every random write a merge
    // Far fewer pages written than the fill and a capacity of overwrites.
    EXPECT_LT(steady["state"]["phases"][0]["pages_written"].get<uint64_t>(), 1.1 * user_pages(steady)) << ftl;
  }
}

// Random writes after `steady` and after `torture` (the fill and a capacity
// of random overwrites), summed over seeds 1..4 (a run sees a phase of the
// FTL's merge or GC cycle, so one seed varies by several %); the first
// steady run has every read checked, and its report is kept.
struct SteadyVsTorture {
  double iops[2] = {0, 0}, wa[2] = {0, 0};  // [0] steady, [1] torture
  nlohmann::json first;                     // seed 1's steady report
};

SteadyVsTorture steady_vs_torture(const std::string& extra) {
  SteadyVsTorture r;
  for (int seed = 1; seed <= 4; ++seed) {
    const std::string more = extra + " --seed=" + std::to_string(seed);
    const auto steady = with_state("steady", more + (seed == 1 ? " --check.content=true" : ""));
    const auto torture = with_state("torture", more);
    r.iops[0] += steady["write"]["iops"].get<double>(), r.iops[1] += torture["write"]["iops"].get<double>();
    r.wa[0] += steady["device"]["write_amplification"].get<double>();
    r.wa[1] += torture["device"]["write_amplification"].get<double>();
    if (seed == 1) r.first = steady;
  }
  return r;
}

// FAST's state cycles (its random logs fill, then the oldest is merged
// whole: a burst of full merges), so a short run sees a phase of the cycle,
// and one seed's IOPS varies by +-5 %. Over 8000 writes (about ten cycles of
// the drive's random logs) and four seeds, the state written short (8 rounds
// of the logs, each die then a random part of a round on) gives the IOPS and
// WA of the fill and a capacity of random overwrites. (Without the 8 rounds
// the IOPS is 6 % off and this fails.)
TEST(DriveState, SteadyOfFastIsTheTortureStateOverSeveralLogCycles) {
  const auto r = steady_vs_torture("--ftl.name=fast --ftl.op=0.07 --workload.rw=randwrite --workload.number_ios=8000");
  EXPECT_NEAR(r.iops[0], r.iops[1], 0.05 * r.iops[1]);
  EXPECT_NEAR(r.wa[0], r.wa[1], 0.01 * r.wa[1]);
  EXPECT_GT(r.wa[1], 4 * 10);  // merges dominate: the comparison is of the merge cycle
  // Far fewer pages written than torture's two capacities.
  EXPECT_LT(r.first["state"]["phases"][0]["pages_written"].get<double>(), 1.3 * double(user_pages(r.first)));
}

// DFTL: the data laid out by greedy GC's model, every translation page
// written, then the map cache warmed by two capacities of random touches
// (entries cached and dirty, evicted and cleaned, no flash work). Over 8000
// writes and four seeds (one seed's IOPS varies by +-11 %), the IOPS and WA
// of the fill and a capacity of random overwrites.
TEST(DriveState, SteadyOfDftlIsTheTortureState) {
  const auto r = steady_vs_torture("--ftl.name=dftl --ftl.map_cache=8k --ftl.op=0.07 --workload.rw=randwrite "
                                   "--workload.number_ios=8000");
  EXPECT_NEAR(r.iops[0], r.iops[1], 0.08 * r.iops[1]);
  EXPECT_NEAR(r.wa[0], r.wa[1], 0.02 * r.wa[1]);
  EXPECT_GT(r.wa[1], 4 * 8);  // GC and write-backs dominate
  // The data built and the cache warmed, nothing written for the host.
  EXPECT_EQ(r.first["state"]["phases"][0]["pages_written"], 0);
}

// (An FTL with no model at all: the plug-in test, PluginCli.)
TEST(DriveState, SteadyWithAGcPolicyItDoesNotModelIsExit2NamingTheOption) {
  for (const std::string extra : {"--ftl.name=dftl --ftl.gc.policy=fifo", "--ftl.gc.policy=fifo"}) {
    const auto r = run(kDrive + "--state steady " + extra);
    EXPECT_EQ(r.code, 2) << extra << ": " << r.out;
    EXPECT_NE(r.out.find("ftl.gc.policy"), std::string::npos) << r.out;
    EXPECT_EQ(ssdtest::program_lines(r.out), 1) << r.out;
  }
}

TEST(DriveState, TracePhaseWritesTheTracesPagesAndIgnoresItsReads) {
  // MSR CSV: writes of 4 KiB at 0 (page 0), 8 KiB at 6 KiB (pages 1-3, two
  // of them partly: written whole), a read (no effect), and a write of one
  // page far beyond the drive (wraps into it: one page).
  const std::string f = tmp("phase.msr.csv");
  std::ofstream(f) << "100,h,0,Write,0,4096,1\n"
                      "200,h,0,Write,6144,8192,1\n"
                      "300,h,0,Read,0,65536,1\n"
                      "400,h,0,Write,1099511627776,4096,1\n";
  const auto j = with_state("trace:" + f, "--workload.rw=randread --check.content=true");
  const auto& p = j["state"]["phases"][0];
  EXPECT_EQ(p["trace_records"], 4);
  EXPECT_EQ(p["pages_written"], 1 + 3 + 1);
  // Only written pages are mapped: the timed random reads find the rest unmapped.
  EXPECT_GT(j["device"]["unmapped_reads"].get<uint64_t>(), 0u);
}

TEST(DriveState, TracePhaseTrimsWholePagesOnlyWithTrimSupport) {
  // A desktop's fstrim, captured with blktrace (traces/samples/apps): its
  // discards unmap pages after a fill, every timed read checked.
  const std::string trace = std::string(SSDSIM_SOURCE_DIR) + "/traces/samples/apps/fstrim-desktop";
  const auto j = with_state("fill,trace:" + trace, "--workload.rw=randread --check.content=true");
  EXPECT_GT(j["state"]["phases"][1]["trimmed_pages"].get<uint64_t>(), 0u);
  EXPECT_GT(j["state"]["phases"][1]["trace_records"].get<uint64_t>(), 0u);
  const auto no = with_state("fill,trace:" + trace, "--workload.rw=randread --controller.trim=false");
  EXPECT_EQ(no["state"]["phases"][1]["trimmed_pages"], 0);
  EXPECT_EQ(no["state"]["phases"][1]["pages_written"], j["state"]["phases"][1]["pages_written"]);
}

TEST(DriveState, BadTracePhasesAreExit2NamingTheFileAndLine) {
  const std::string f = tmp("bad.msr.csv");
  std::ofstream(f) << "1,h,0,Write,0,4096,1\n2,h,0,Write,oops,4096,1\n";
  auto r = run(kDrive + "--state trace:" + f);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--state"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(f + ": line 2"), std::string::npos) << r.out;
  EXPECT_EQ(ssdtest::program_lines(r.out), 1) << r.out;
  r = run(kDrive + "--state trace:" + tmp("no-such-trace.csv"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("no such file"), std::string::npos) << r.out;
  const std::string ok = tmp("ok.msr.csv");
  std::ofstream(ok) << "1,h,0,Write,0,4096,1\n";
  r = run(kDrive + "--raid.members=2 --state trace:" + ok);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("raid.members"), std::string::npos) << r.out;
}

}  // namespace state_test

