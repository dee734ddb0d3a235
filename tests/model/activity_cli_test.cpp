// --vcd / --activity through the binary: bad values exit 2 naming the
// option, tracing changes no result, and the traces agree with the report.
#include "tests/model/cli_util.h"
#include "tests/model/vcd_reader.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace activity_cli_test {

using ssdtest::Result;
using ssdtest::run;
using ssdtest::tmp;

// Small and busy: random writes on a full drive run GC.
const std::string kBusy =
    "--nand.channels=2 --nand.dies_per_channel=2 --nand.blocks_per_plane=32 --nand.pages_per_block=32 "
    "--ftl.op=0.15 --precondition=used --workload.rw=randrw --workload.number_ios=3000 --workload.iodepth=8 ";

void expect_bad(const std::string& args, const std::string& message) {
  const Result r = run(kBusy + args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
  EXPECT_EQ(ssdtest::program_lines(r.out), 1) << "one line: " << r.out;
}

TEST(ActivityCli, BadValues) {
  expect_bad("--vcd=/nonexistent/dir/a.vcd", "option '--vcd': /nonexistent/dir/a.vcd: cannot open for writing");
  expect_bad("--activity=/nonexistent/dir/a.json",
             "option '--activity': /nonexistent/dir/a.json: cannot open for writing");
  expect_bad("--vcd=" + tmp("wave.txt"), "option '--vcd': the file name must end in .vcd");
  expect_bad("--vcd=" + tmp("a.vcd") + " --vcd.start=2ms --vcd.end=1ms", "option '--vcd.end': must be after vcd.start");
  expect_bad("--activity=" + tmp("a.json") + " --activity.end=1ms --activity.start=1ms",
             "option '--activity.end': must be after activity.start");
  expect_bad("--activity=" + tmp("a.json") + " --activity.start=5", "option '--activity.start': time '5' needs a unit");
  expect_bad("--vcd.start=1ms", "option '--vcd.start': needs --vcd=FILE");
  expect_bad("--activity.end=1ms", "option '--activity.end': needs --activity=FILE");
  expect_bad("--report=" + tmp("same.json") + " --activity=" + tmp("same.json"),
             "option '--activity': writes to the same file as report");
  expect_bad("--vcd=" + tmp("x.vcd") + " --export-trace=" + tmp("t.csv"),
             "option '--vcd': nothing is simulated with --export-trace");
}

TEST(ActivityCli, TracingChangesNoResultAndMatchesTheReport) {
  const std::string plain = tmp("plain.json"), traced = tmp("traced.json"), trace = tmp("act.json"),
                    wave = tmp("act.vcd");
  ASSERT_EQ(run(kBusy + "--report=" + plain).code, 0);
  const Result r = run(kBusy + "--report=" + traced + " --activity=" + trace + " --vcd=" + wave);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("Info"), std::string::npos) << "SystemC chatter on stdout: " << r.out;
  nlohmann::json a = ssdtest::read_json(plain), b = ssdtest::read_json(traced);
  for (auto* j : {&a, &b}) {
    j->erase("options");
    (*j)["device"].erase("wall_clock_s");
    (*j)["device"].erase("kernel");  // a cost figure: tracing runs the kernel more
  }
  EXPECT_EQ(a, b);

  // Every NAND operation the report counts is one die slice, GC ones flagged.
  const nlohmann::json t = ssdtest::read_json(trace);
  std::map<std::pair<int, std::string>, uint64_t> die_ops;  // (channel, name) -> slices
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "X" && e["pid"].get<int>() >= 10 && e["tid"].get<int>() >= 2) {
      ++die_ops[{e["pid"].get<int>() - 10, e["name"].get<std::string>()}];
      EXPECT_EQ(e["args"]["gc"].get<bool>(), e["name"].get<std::string>().rfind("gc ", 0) == 0) << e;
    }
  uint64_t gc = 0;
  for (const auto& ch : b["device"]["channels"]) {
    const int c = ch["channel"];
    for (const std::string op : {"read", "program", "erase"}) {
      EXPECT_EQ((die_ops[{c, op}]), ch[op + "s"].get<uint64_t>()) << c << " " << op;
      EXPECT_EQ((die_ops[{c, "gc " + op}]), ch["gc_" + op + "s"].get<uint64_t>()) << c << " gc " << op;
      gc += ch["gc_" + op + "s"].get<uint64_t>();
    }
  }
  EXPECT_GT(gc, 0u) << "the workload should have run GC";

  // The VCD holds every resource, and each die signal goes busy as often as
  // it has operations not back to back with the previous one (at least once).
  const ssdtest::Vcd v = ssdtest::read_vcd(wave);
  for (const char* s : {"sata.link", "dram.port", "cpu.core0", "channel0.bus", "channel1.die1"}) {
    ASSERT_TRUE(v.id_of.count(s)) << s;
    EXPECT_GT(v.of(s).size(), 2u) << s;
  }
  // Each signal is exactly the Perfetto slices of its track turned into
  // value changes: the code from each start, 0 from each end (an end and a
  // start at the same time leave the start), only where the value changes.
  const std::map<std::string, uint64_t> code{{"read", 1}, {"program", 2}, {"erase", 3}, {"transfer", 4}};
  for (const auto& [signal, pid, tid] : {std::tuple{"channel1.die1", 11, 3}, std::tuple{"channel0.bus", 10, 1}}) {
    std::vector<std::tuple<uint64_t, int, uint64_t>> points;  // (ps, 0 end / 1 start, value)
    for (const auto& e : t["traceEvents"])
      if (e["ph"] == "X" && e["pid"] == pid && e["tid"] == tid) {
        std::string name = e["name"];
        const bool gc = name.rfind("gc ", 0) == 0;
        if (gc) name = name.substr(3);
        ASSERT_TRUE(code.count(name)) << e;
        const uint64_t a = uint64_t(std::llround(e["ts"].get<double>() * 1e6));
        const uint64_t b = a + uint64_t(std::llround(e["dur"].get<double>() * 1e6));
        points.push_back({a, 1, code.at(name) + (gc ? 16 : 0)});
        points.push_back({b, 0, 0});
      }
    std::sort(points.begin(), points.end());
    std::vector<std::pair<uint64_t, uint64_t>> expected{{0, 0}};
    for (size_t i = 0; i < points.size(); ++i) {
      const uint64_t at = std::get<0>(points[i]);
      if (i + 1 < points.size() && std::get<0>(points[i + 1]) == at) continue;  // the last at this time wins
      if (std::get<2>(points[i]) != expected.back().second) expected.push_back({at, std::get<2>(points[i])});
    }
    EXPECT_GT(expected.size(), 10u) << signal;
    EXPECT_EQ(v.of(signal), expected) << signal;
  }
}

// A block FTL's buffer holds the pages of four random writes until the
// fourth flushes it: the merge programs each of them under its own LPN (the
// commands' offsets), not the flushing command's.
TEST(ActivityCli, ABufferFlushProgramsEachPageUnderItsOwnLpn) {
  const std::string trace = tmp("flush.json");
  const Result r = run("--nand.channels=1 --nand.dies_per_channel=1 --nand.planes_per_die=1 --nand.blocks_per_plane=64 "
                       "--nand.pages_per_block=16 --nand.page_size=4k --ftl.name=block --ftl.op=0.25 "
                       "--ftl.block.buffer=4 --precondition=none --workload.rw=randwrite --workload.bs=4k "
                       "--workload.iodepth=1 --workload.number_ios=4 --workload.size=64k --activity=" + trace);
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json t = ssdtest::read_json(trace);  // kept: a range over a temporary's member dangles
  std::vector<uint64_t> written, programmed;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] != "X") continue;
    if (e["name"] == "WRITE") written.push_back(e["args"]["offset"].get<uint64_t>() / 4096);
    if (e["name"] == "program") programmed.push_back(e["args"]["lpn"].get<uint64_t>());
  }
  std::sort(written.begin(), written.end());
  std::sort(programmed.begin(), programmed.end());
  ASSERT_EQ(written.size(), 4u);
  EXPECT_EQ(std::adjacent_find(written.begin(), written.end()), written.end()) << "four distinct pages";
  EXPECT_EQ(programmed, written);
}

}  // namespace activity_cli_test

