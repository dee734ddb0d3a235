// End-to-end tests of the ssdsim binary: bad input gives one clear line and
// exit code 2; reports are complete and deterministic; config precedence.
#include <cstdlib>
#include <map>
#include <sstream>

#include "tests/model/cli_util.h"

namespace cli_test {

using ssdtest::Result;
using ssdtest::run;
using ssdtest::tmp;

// A small drive so each run takes well under a second.
const std::string kSmall =
    "--nand.channels=4 --nand.dies_per_channel=2 --nand.blocks_per_plane=64 --nand.pages_per_block=64 "
    "--workload.number_ios=2000 ";

void expect_bad(const std::string& args, const std::string& message) {
  const Result r = run(kSmall + args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
  EXPECT_EQ(ssdtest::program_lines(r.out), 1) << "one line: " << r.out;
}

TEST(BadInput, UnknownOption) { expect_bad("--nand.chanels=4", "nand.chanels"); }
// An unknown option names the keys it may have meant: fio's names (the
// key's last part), a key in the wrong section, a cut-short or misspelt
// key; nothing when no key is close.
TEST(BadInput, UnknownOptionSuggestsTheKeyMeant) {
  expect_bad("--rw=randread", "unrecognised option '--rw=randread' (did you mean '--workload.rw'?)");
  expect_bad("--iodepth=4", "(did you mean '--workload.iodepth' or '--trace.iodepth'?)");
  expect_bad("--dram.channels=2", "(did you mean '--nand.channels'?)");
  expect_bad("--nand.chan=4", "(did you mean '--nand.channels' or '--nand.channel_rate'?)");
  expect_bad("--nand.chanels=4", "(did you mean '--nand.channels'?)");
  const Result r = run(kSmall + "--bogus=1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("unrecognised option '--bogus=1'"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("did you mean"), std::string::npos) << r.out;
}
TEST(BadInput, UnitlessSize) { expect_bad("--nand.page_size=4096", "option '--nand.page_size': size '4096' needs a unit"); }
TEST(BadInput, NegativeSize) { expect_bad("--workload.bs=-4k", "option '--workload.bs': negative value"); }
TEST(BadInput, UnitlessTime) { expect_bad("--nand.t_read=50", "option '--nand.t_read': time '50' needs a unit"); }
TEST(BadInput, GeometryPageSize) { expect_bad("--nand.page_size=1000B", "option '--nand.page_size': must be a multiple of 512"); }
TEST(BadInput, GeometryNoSpare) { expect_bad("--ftl.op=0.001", "option '--ftl.op': spare area of 0.001 leaves fewer than"); }
TEST(BadInput, GeometryZeroChannels) { expect_bad("--nand.channels=0", "option '--nand.channels': '0' is out of range"); }
TEST(BadInput, IodepthAboveHostQueue) {
  expect_bad("--workload.iodepth=1025", "option '--workload.iodepth': 1025 is above the host queue limit of 1024");
}
TEST(BadInput, SpanLargerThanDrive) {
  expect_bad("--workload.size=1t", "option '--workload.size': 1t from workload.offset 0 ends beyond the drive's user");
}
TEST(BadInput, UnknownFtl) { expect_bad("--ftl.name=magic", "option '--ftl.name': unknown FTL 'magic' (known: "); }
TEST(BadInput, UnknownPattern) { expect_bad("--workload.rw=zigzag", "option '--workload.rw': 'zigzag' is not one of"); }
TEST(BadInput, GeometryTooSmallBlamesTheDefaultItBreaks) {
  expect_bad("--nand.blocks_per_plane=1", "configuration: option 'ftl.op' (default 0.07): spare area of 0.07 leaves");
}
TEST(BadInput, UnwritableReportFailsBeforeTheRun) {
  expect_bad("--report /nonexistent/dir/r.json", "option '--report': /nonexistent/dir/r.json: cannot open for writing");
}
TEST(BadInput, CountBeyond64BitsIsOutOfRangeNotMalformed) {
  expect_bad("--nand.channels=99999999999999999999999", "option '--nand.channels': '99999999999999999999999' is out of range [1, 64]");
  expect_bad("--seed=18446744073709551616", "option '--seed': '18446744073709551616' is out of range");
}
TEST(BadInput, UnwritableExportTraceFailsBeforeTheWork) {
  expect_bad("--export-trace=/nonexistent/dir/t.csv", "option '--export-trace': /nonexistent/dir/t.csv: cannot open for writing");
}
// '-' would silently be a file named '-', where a user expects stdout.
TEST(BadInput, DashIsNotStdout) {
  expect_bad("--report -", "option '--report': '-' would be a file named '-' (not stdout): for the JSON report on "
                           "stdout use --output-format=json");
  expect_bad("--latency-log=-", "option '--latency-log': '-' would be a file named '-' (not stdout): name a file");
}
TEST(BadInput, MissingConfigFile) { expect_bad("--config /nonexistent.ini", "/nonexistent.ini: cannot open config file"); }

TEST(BadInput, ConfigFileErrorNamesFileLineAndKey) {
  const std::string path = tmp("bad.ini");
  std::ofstream(path) << "# drive\n[nand]\nchannels = 4\npage_size = 4096\n";
  expect_bad("--config " + path, path + ": line 4: option 'nand.page_size': size '4096' needs a unit");
}

TEST(BadInput, ConfigFileUnknownKey) {
  const std::string path = tmp("unknown.ini");
  std::ofstream(path) << "[nand]\nchanels = 4\n";
  expect_bad("--config " + path, path + ": line 2: unknown option 'nand.chanels' (did you mean 'nand.channels'?)");
  const std::string far = tmp("unknown-far.ini");
  std::ofstream(far) << "[nand]\nzzz = 4\n";
  expect_bad("--config " + far, far + ": line 2: unknown option 'nand.zzz' (see --help)");
}

// Within one file a key given twice is a mistake, not an override (the
// later value would silently replace the earlier): both lines are named,
// whether the second comes under a repeated section or as section.key.
TEST(BadInput, ConfigFileKeyGivenTwice) {
  const std::string path = tmp("twice.ini"), dotted = tmp("twice-dotted.ini");
  std::ofstream(path) << "[nand]\nchannels = 4\n[dram]\nsize = 64m\n[nand]\nchannels = 8\n";
  expect_bad("--config " + path, path + ": line 6: 'nand.channels' again (first on line 2)");
  std::ofstream(dotted) << "[nand]\nchannels = 4\n[dram]\nsize = 64m\n[]\nnand.channels = 8\n";
  expect_bad("--config " + dotted, dotted + ": line 6: 'nand.channels' again (first on line 2)");
}

// An INI file's own rules: '#' and ';' start a comment at a line's start or
// after a space (a '#' inside a value is the value's), and [] returns to
// dotted keys of no section.
TEST(Cli, ConfigFileCommentsAndTheEmptySection) {
  const std::string ini = tmp("comments.ini"), report = tmp("out#1.json");
  std::ofstream(ini) << ";channels = 8\n[nand] ; the flash\nchannels = 2 # two\n[]\nseed = 3\nreport = " << report
                     << "\n";
  const Result r = run("--nand.blocks_per_plane=64 --nand.pages_per_block=64 --workload.number_ios=200 --config " + ini);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = ssdtest::read_json(report);
  EXPECT_EQ(j["options"]["nand.channels"], "2");
  EXPECT_EQ(j["options"]["seed"], "3");
}

TEST(Cli, HelpDocumentsEveryKeyWithDefault) {
  const Result r = run("--help");
  EXPECT_EQ(r.code, 0);
  for (const char* key : {"--nand.channels", "--nand.dies_per_channel", "--nand.t_read", "--nand.channel_rate",
                          "--dram.size", "--cpu.clock", "--sata.gen", "--ftl.name", "--ftl.op", "--precondition",
                          "--workload.rwmixread", "--seed", "--report"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key;
  EXPECT_NE(r.out.find("(default: 40MB/s)"), std::string::npos);
}

// Every section header appears once (FTL plug-ins' ftl.* options join the
// core [ftl] group), every option is under the header of its section, and
// the text ends with the examples.
TEST(Cli, HelpGroupsEachSectionOnceAndEndsWithExamples) {
  const Result r = run("--help");
  ASSERT_EQ(r.code, 0);
  std::map<std::string, int> headers;
  std::string section;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.size() > 2 && line.front() == '[' && line.back() == ']') {
      ++headers[section = line.substr(1, line.size() - 2)];
    } else if (line.rfind("  --", 0) == 0 && !section.empty() && line.find('.') < line.find(' ', 4)) {
      // A dotted key: its prefix is the section it is listed under.
      const std::string key = line.substr(4, line.find(' ', 4) - 4);
      EXPECT_EQ(key.substr(0, key.find('.')), section) << line;
    }
  }
  for (const char* s : {"nand", "dram", "cpu", "sata", "ftl", "workload", "trace", "general"})
    EXPECT_EQ(headers[s], 1) << s;
  for (const auto& [name, count] : headers) EXPECT_EQ(count, 1) << "[" << name << "]";
  // Plug-in FTL options (the page FTL's gc policy) are listed, in [ftl].
  EXPECT_NE(r.out.find("--ftl.gc.policy"), std::string::npos);
  // The examples come last: after the header, only indented example lines.
  const size_t ex = r.out.rfind("\nExamples");
  ASSERT_NE(ex, std::string::npos);
  EXPECT_GT(ex, r.out.rfind("\n[")) << "examples before a section";
  std::istringstream tail(r.out.substr(r.out.find('\n', ex + 1) + 1));
  int lines = 0;
  for (std::string line; std::getline(tail, line); ++lines) EXPECT_EQ(line.rfind("  ", 0), 0u) << line;
  EXPECT_GE(lines, 4);
  const std::string examples = r.out.substr(ex);
  for (const char* e : {"ssdsim --config ", "ssdsim --trace ", "ssdsim --job ", "scripts/sweep "})
    EXPECT_NE(examples.find(e), std::string::npos) << e;
  // The exit statuses, just before them (InterruptCli checks 130 and 143).
  const size_t status = r.out.rfind("\nExit status: 0 done; 2 bad input");
  ASSERT_NE(status, std::string::npos);
  EXPECT_GT(status, r.out.rfind("\n[")) << "exit statuses before a section";
  EXPECT_NE(r.out.find("(130 Ctrl-C, 143 SIGTERM)", status), std::string::npos);
}

// Progress lines go to stderr only (when they appear depends on wall time,
// which no test can pin): stdout holds the JSON report alone.
TEST(Cli, ProgressStaysOffStdout) {
  const std::string out = tmp("progress_stdout.json");
  const std::string cmd = std::string(SSDSIM_BIN) + " " + kSmall + "--output-format=json > " + out + " 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::ifstream in(out);
  nlohmann::json j;
  ASSERT_NO_THROW(in >> j);
  EXPECT_EQ(j["read"]["total_ios"].get<uint64_t>() + j["write"]["total_ios"].get<uint64_t>(), 2000u);
  in >> std::ws;
  EXPECT_TRUE(in.eof()) << "stdout has more than the JSON report";
}

// Write amplification has no value without host writes: the summary says
// so rather than print 0 as if measured; with writes it is the ratio.
TEST(Cli, SummaryWriteAmplificationNeedsHostWrites) {
  const Result reads = run(kSmall + "--workload.rw=randread");
  ASSERT_EQ(reads.code, 0) << reads.out;
  EXPECT_NE(reads.out.find("device: WA=n/a (no host writes), "), std::string::npos) << reads.out;
  const Result writes = run(kSmall + "--workload.rw=write --precondition=none");
  ASSERT_EQ(writes.code, 0) << writes.out;
  EXPECT_NE(writes.out.find("device: WA=1.000, "), std::string::npos) << writes.out;
}

// FLUSH CACHE commands get a line of their own (count, mean, maximum), and
// the last line says why the run stopped.
TEST(Cli, SummaryShowsFlushesAndWhyTheRunStopped) {
  const std::string trace = tmp("summary_flush.iolog");
  std::ofstream(trace) << "fio version 3 iolog\n0 /dev/t add\n0 /dev/t open\n0 /dev/t write 0 4096\n"
                          "0 /dev/t sync 0 0\n0 /dev/t write 4096 4096\n0 /dev/t sync 0 0\n0 /dev/t close\n";
  const Result r = run("--nand.channels=4 --nand.dies_per_channel=2 --nand.blocks_per_plane=64 "
                       "--nand.pages_per_block=64 --trace " + trace);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\n  flush: ios=2, lat(us): avg="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("), stopped: workload done\n"), std::string::npos) << r.out;
  const Result timed = run(kSmall + "--workload.number_ios=0 --workload.runtime=1ms");
  ASSERT_EQ(timed.code, 0) << timed.out;
  EXPECT_NE(timed.out.find("), stopped: workload.runtime reached\n"), std::string::npos) << timed.out;
  EXPECT_EQ(timed.out.find("flush:"), std::string::npos) << timed.out;
}

// A setting of a part that is not in use would be silently ignored: refused,
// naming what it needs (as vcd.start without --vcd, activity_cli_test.cpp).
TEST(BadInput, SettingOfAPartNotInUse) {
  expect_bad("--timeseries.interval=2s", "option '--timeseries.interval': needs --timeseries=FILE");
  expect_bad("--latency-log.format=fio", "option '--latency-log.format': needs --latency-log=FILE");
  expect_bad("--export-trace.format=msr", "option '--export-trace.format': needs --export-trace=FILE");
  expect_bad("--precondition=seq-fill --precondition.overwrite=0.5",
             "option '--precondition.overwrite': only applies to precondition=used");
  expect_bad("--ftl.gc.bg_threshold=4", "option '--ftl.gc.bg_threshold': only matters with idle-time work");
  expect_bad("--dram.plp=1ms", "option '--dram.plp': only matters at a power cut: needs --powerfail.at");
  expect_bad("--report.avgtime=1s", "option '--report.avgtime': sets samples of the JSON report: needs --report=FILE");
  // (state.threads is a limit, not a setting of the drive: a state with no
  // phases keeps to it, as sweeps that set it on every point rely on.)
  EXPECT_EQ(run(kSmall + "--precondition=none --state.threads=2").code, 0);
  // With what they need, each is taken.
  for (const std::string& ok : std::vector<std::string>{"--timeseries=" + tmp("ts.csv") + " --timeseries.interval=2ms",
                                "--precondition=used --precondition.overwrite=0.1",
                                "--ftl.idle_after=1ms --ftl.gc.bg_threshold=4",
                                "--dram.plp=1ms --powerfail.at=1ms",
                                "--output-format=json --report.avgtime=1ms"}) {
    const Result r = run(kSmall + ok);
    EXPECT_EQ(r.code, 0) << ok << "\n" << r.out;
  }
}

TEST(Cli, Version) {
  const Result r = run("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("ssdsim ", 0), 0u);
}

// --help, --version, --list-ftls and --kernel-speed print and exit: an
// option beside one of them would shape nothing, so it is refused (only
// --ftl.plugin, whose options and FTLs --help and --list-ftls then list).
TEST(BadInput, InformationActionsStandAlone) {
  for (const std::string action : {"--version", "--list-ftls", "--help", "--kernel-speed"}) {
    const Result r = run(action + " --workload.rw=zigzag");
    EXPECT_EQ(r.code, 2) << action << "\n" << r.out;
    EXPECT_NE(r.out.find("command line: " + action + " takes no other option (given: '--workload.rw')"),
              std::string::npos) << r.out;
    EXPECT_EQ(ssdtest::program_lines(r.out), 1) << r.out;
  }
  const Result both = run("--version --list-ftls");
  EXPECT_EQ(both.code, 2) << both.out;
  EXPECT_NE(both.out.find("command line: --version and --list-ftls: give one of them"), std::string::npos) << both.out;
  const std::string ini = tmp("version.ini");
  std::ofstream(ini) << "[nand]\nchannels = 2\n";
  const Result config = run("--config " + ini + " --version");
  EXPECT_EQ(config.code, 2) << config.out;
  EXPECT_NE(config.out.find("--version takes no other option (given: '--config')"), std::string::npos) << config.out;
  EXPECT_EQ(run("-h").code, 0);
}

TEST(Cli, LaterSourcesOverrideEarlier) {
  const std::string a = tmp("a.ini"), b = tmp("b.ini"), rep = tmp("override.json");
  std::ofstream(a) << "[nand]\nchannels = 2\n[workload]\nnumber_ios = 100\n";
  std::ofstream(b) << "[nand]\nchannels = 3\n";
  const Result r = run(kSmall + "--config " + a + " --config " + b + " --nand.dies_per_channel=1 --report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  nlohmann::json j;
  std::ifstream(rep) >> j;
  EXPECT_EQ(j["device"]["channels"].size(), 3u);
  EXPECT_EQ(j["device"]["dies"].size(), 3u);
  EXPECT_EQ(j["read"]["total_ios"].get<uint64_t>() + j["write"]["total_ios"].get<uint64_t>(), 100u);
}

TEST(Cli, ReportHasFioSectionsAndDeviceStatistics) {
  const std::string rep = tmp("report.json");
  const Result r = run(kSmall + "--report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  nlohmann::json j;
  std::ifstream(rep) >> j;
  for (const char* op : {"read", "write", "trim"}) {
    const auto& s = j[op];
    for (const char* k : {"total_ios", "io_bytes", "iops", "bw_bytes"}) EXPECT_TRUE(s.contains(k)) << op << k;
    for (const char* k : {"min", "max", "mean", "stddev"}) EXPECT_TRUE(s["lat_ns"].contains(k)) << op << k;
    for (const char* p : {"50.000000", "99.000000", "99.900000"})
      EXPECT_TRUE(s["lat_ns"]["percentile"].contains(p)) << op << p;
  }
  EXPECT_EQ(j["read"]["total_ios"].get<uint64_t>() + j["write"]["total_ios"].get<uint64_t>(), 2000u);
  const auto& d = j["device"];
  for (const char* k : {"write_amplification", "gc_runs", "gc_pages_moved", "erase_count", "channels", "dies",
                        "simulated_time_ns", "wall_clock_s"})
    EXPECT_TRUE(d.contains(k)) << k;
  EXPECT_EQ(d["dies"].size(), 8u);
  EXPECT_NE(r.out.find("read :"), std::string::npos);
}

// sata.flow_control paces only a write cache: a write-through SSD, the
// RAID-0 chip and a hard disk take a write's data as it comes, so their
// reports are those of the same run without it; a write cache smaller than
// the writes makes them wait for slots, so its report differs.
TEST(Cli, FlowControlPacesOnlyAWriteCache) {
  const std::string w = "--seed=3 --workload.rw=randrw --workload.bs=64k --workload.iodepth=4 ";
  const auto report = [&](const std::string& args, bool flow) {
    const std::string path = tmp(std::string("flow_") + (flow ? "on" : "off") + ".json");
    const Result r = run(w + args + (flow ? " --sata.flow_control=true" : "") + " --report " + path);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
    nlohmann::json j;
    std::ifstream(path) >> j;
    j["device"].erase("wall_clock_s");
    j.erase("options");
    return j.dump();
  };
  for (const std::string& args : {kSmall + "--dram.write_cache=0", kSmall + "--raid.members=2 --dram.write_cache=16k",
                                 std::string("--device=hdd --workload.number_ios=300")})
    EXPECT_EQ(report(args, false), report(args, true)) << args;
  EXPECT_NE(report(kSmall + "--dram.write_cache=16k", false), report(kSmall + "--dram.write_cache=16k", true));
}

TEST(Cli, SameSeedGivesIdenticalReport) {
  const std::string a = tmp("det_a.json"), b = tmp("det_b.json"), c = tmp("det_c.json");
  ASSERT_EQ(run(kSmall + "--seed=9 --precondition=used --workload.rw=randrw --report " + a).code, 0);
  ASSERT_EQ(run(kSmall + "--seed=9 --precondition=used --workload.rw=randrw --report " + b).code, 0);
  ASSERT_EQ(run(kSmall + "--seed=10 --precondition=used --workload.rw=randrw --report " + c).code, 0);
  nlohmann::json ja, jb, jc;
  std::ifstream(a) >> ja;
  std::ifstream(b) >> jb;
  std::ifstream(c) >> jc;
  // Wall-clock figures are the only fields allowed to differ.
  for (auto* j : {&ja, &jb, &jc}) {
    (*j)["device"].erase("wall_clock_s");
    (*j)["options"].erase("report");
  }
  EXPECT_EQ(ja.dump(), jb.dump());
  EXPECT_NE(ja.dump(), jc.dump());
}

}  // namespace cli_test

