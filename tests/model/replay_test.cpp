// Trace replay end to end: every record accounted for, the replayed counts
// and bytes equal the capture's independent summary, the per-IO outputs, and
// a replayed trace timing exactly like the equivalent synthetic workload.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "tests/model/cli_util.h"

namespace replay_test {

using ssdtest::read_csv;
using ssdtest::read_json;
using ssdtest::run;
using ssdtest::tmp;

const std::string kSamples = std::string(SSDSIM_SOURCE_DIR) + "/traces/samples/";
const std::string kSmall =
    "--nand.channels=4 --nand.dies_per_channel=2 --nand.blocks_per_plane=256 --nand.pages_per_block=64 ";

// The capture's summary was computed by an independent Python reader of the
// binary files (traces/samples/apps/SOURCES.md).
void expect_matches_summary(const std::string& name, const std::string& extra) {
  const nlohmann::json sum = read_json(kSamples + "apps/" + name + ".summary.json");
  const std::string rep = tmp(name + ".json");
  // A drive of the captured device's size (2 GiB) so no address wraps.
  const auto r = run("--nand.channels=4 --nand.dies_per_channel=2 --nand.blocks_per_plane=512 "
                     "--nand.pages_per_block=128 --ftl.op=0.07 --trace " + kSamples + "apps/" + name +
                     " --trace.mode=afap --report " + rep + " " + extra);
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = read_json(rep);
  const auto& q = sum["Q"];
  EXPECT_EQ(j["trace"]["format"], "blktrace");
  EXPECT_EQ(j["trace"]["records_read"].get<uint64_t>(), q["total"].get<uint64_t>());
  EXPECT_EQ(j["trace"]["replayed"].get<uint64_t>() + j["trace"]["filtered"].get<uint64_t>(),
            j["trace"]["records_read"].get<uint64_t>());
  EXPECT_EQ(j["trace"]["remapped"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["read"]["total_ios"].get<uint64_t>(), q["read"].get<uint64_t>());
  EXPECT_EQ(j["write"]["total_ios"].get<uint64_t>(), q["write"].get<uint64_t>());
  EXPECT_EQ(j["trim"]["total_ios"].get<uint64_t>(), q["discard"].get<uint64_t>());
  EXPECT_EQ(j["flush"]["total_ios"].get<uint64_t>(), q["flush_no_data"].get<uint64_t>());
  EXPECT_EQ(j["read"]["io_bytes"].get<uint64_t>(), q["bytes_read"].get<uint64_t>());
  EXPECT_EQ(j["write"]["io_bytes"].get<uint64_t>(), q["bytes_written"].get<uint64_t>());
  EXPECT_EQ(j["trim"]["io_bytes"].get<uint64_t>(), q["bytes_discarded"].get<uint64_t>());
  // Non-request events are counted, not silently dropped: every event but the Qs.
  uint64_t ignored = 0;
  for (const auto& [k, v] : j["trace"]["ignored_events"].items()) ignored += v.get<uint64_t>();
  EXPECT_EQ(ignored + q["total"].get<uint64_t>(), sum["total_events"].get<uint64_t>() + sum["process_notes"].get<uint64_t>());
}

TEST(Replay, BuildCaptureAccountsForEveryRecord) { expect_matches_summary("build", ""); }
TEST(Replay, FstrimCaptureReplaysDiscardsAsTrim) {
  expect_matches_summary("fstrim-desktop", "");
}

TEST(Replay, TimedModeHonoursArrivalsAndSpeed) {
  // wsrch: 24782 records over 60.07 s; at speed 10 the replay spans ~6 s.
  const std::string rep = tmp("wsrch.json");
  const auto r = run(kSmall + "--trace " + kSamples + "mqsim/wsrch-small.trace --trace.speed=10 --report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(rep);
  EXPECT_EQ(j["trace"]["format"], "disksim");
  // 24782 newline-terminated lines plus a last line without a newline (SOURCES.md: 4 writes + 24779 reads).
  EXPECT_EQ(j["read"]["total_ios"].get<uint64_t>(), 24779u);
  EXPECT_EQ(j["write"]["total_ios"].get<uint64_t>(), 4u);
  const double secs = j["device"]["simulated_time_ns"].get<double>() / 1e9;
  EXPECT_GT(secs, 6.007 * 0.99);
  EXPECT_LT(secs, 6.007 + 0.1);
  // Its addresses exceed this 0.5 GiB drive: wrapped and counted.
  EXPECT_GT(j["trace"]["remapped"].get<uint64_t>(), 0u);
}

TEST(Replay, DriveWithoutTrimKeepsTrimmedDataMapped) {
  // TRIM of the first 1 MiB of the filled drive, then a read of its first
  // page: a drive with TRIM unmaps 256 pages and the read finds nothing
  // mapped; one without (controller.trim=false) completes the TRIM, counts
  // it ignored, and the read goes to flash.
  const std::string log = tmp("trim_then_read.iolog");
  std::ofstream(log) << "fio version 3 iolog\n0 /dev/x add\n0 /dev/x open\n1 /dev/x trim 0 1048576\n"
                        "2 /dev/x read 0 4096\n3 /dev/x close\n";
  for (const bool trim : {true, false}) {
    const std::string rep = tmp(trim ? "trim_on.json" : "trim_off.json");
    const auto r = run(kSmall + "--precondition=seq-fill --trace " + log + " --trace.iodepth=1 --controller.trim=" +
                       (trim ? "true" : "false") + " --report " + rep);
    ASSERT_EQ(r.code, 0) << r.out;
    const auto j = read_json(rep);
    EXPECT_EQ(j["trim"]["total_ios"].get<uint64_t>(), 1u);
    EXPECT_EQ(j["device"]["trimmed_pages"].get<uint64_t>(), trim ? 256u : 0u);
    EXPECT_EQ(j["device"]["trims_ignored"].get<uint64_t>(), trim ? 0u : 1u);
    EXPECT_EQ(j["device"]["unmapped_reads"].get<uint64_t>(), trim ? 1u : 0u);
  }
}

TEST(Replay, TheContentCheckKnowsAnIgnoredTrimLeftTheDataMapped) {
  // The same TRIM and read with check.content: the host's record must drop
  // the trimmed pages only if the drive did (a drive without TRIM support
  // returns the data still written: it once failed as "expected unmapped"),
  // behind a RAID-0 front-end too (the members' answer reaches the host).
  const std::string log = tmp("trim_then_check.iolog");
  std::ofstream(log) << "fio version 3 iolog\n0 /dev/x add\n0 /dev/x open\n1 /dev/x trim 0 1048576\n"
                        "2 /dev/x read 0 4096\n3 /dev/x close\n";
  for (const bool trim : {true, false})
    for (const char* members : {"1", "2"}) {
      const std::string rep = tmp(std::string("check_") + (trim ? "on_" : "off_") + members + ".json");
      const auto r = run(kSmall + "--precondition=seq-fill --trace " + log + " --trace.iodepth=1 --controller.trim=" +
                         (trim ? "true" : "false") + " --raid.members=" + members + " --check.content=on --report " +
                         rep);
      ASSERT_EQ(r.code, 0) << "trim " << trim << ", " << members << " member(s)\n" << r.out;
      const auto j = read_json(rep);
      EXPECT_EQ(j["device"]["content_check"]["pages_checked"].get<uint64_t>(), 1u);
      EXPECT_EQ(j["device"]["trims_ignored"].get<uint64_t>(), trim ? 0u : std::stoull(members));
    }
}

TEST(Replay, DiscardLargerThanTheDriveTrimsTheWholeDrive) {
  // fstrim of the captured 2 GiB device on a 0.5 GiB drive: every discard
  // still replays, wrapped; one larger than the drive trims all of it.
  const nlohmann::json sum = read_json(kSamples + "apps/fstrim-desktop.summary.json");
  const std::string rep = tmp("fstrim_small.json");
  const auto r = run(kSmall + "--trace " + kSamples + "apps/fstrim-desktop --trace.mode=afap --report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(rep);
  EXPECT_EQ(j["trim"]["total_ios"].get<uint64_t>(), sum["Q"]["discard"].get<uint64_t>());
  EXPECT_GT(j["trace"]["remapped"].get<uint64_t>(), 0u);  // wrapped into 0.5 GiB, each kept whole
  EXPECT_EQ(j["trim"]["io_bytes"].get<uint64_t>(), sum["Q"]["bytes_discarded"].get<uint64_t>());
  // One discard larger than the whole drive: clamped to the user capacity.
  const std::string big = tmp("big_trim.iolog"), rep2 = tmp("big_trim.json");
  std::ofstream(big) << "fio version 3 iolog\n0 /dev/x add\n0 /dev/x open\n1 /dev/x trim 0 1073741824\n"
                        "2 /dev/x close\n";
  const auto r2 = run(kSmall + "--trace " + big + " --report " + rep2);
  ASSERT_EQ(r2.code, 0) << r2.out;
  const auto j2 = read_json(rep2);
  EXPECT_EQ(j2["trim"]["total_ios"].get<uint64_t>(), 1u);
  EXPECT_EQ(j2["trim"]["io_bytes"].get<uint64_t>(), j2["device"]["user_capacity_bytes"].get<uint64_t>() / 512 * 512);
  EXPECT_EQ(j2["trace"]["remapped"].get<uint64_t>(), 1u);
}

TEST(Replay, BeyondCapacityErrorNamesTheRecord) {
  const auto r = run(kSmall + "--trace " + kSamples + "mqsim/wsrch-small.trace --trace.beyond=error");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("wsrch-small.trace"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("beyond the drive's capacity"), std::string::npos) << r.out;
}

TEST(Replay, FiltersAreCountedByReason) {
  const std::string rep = tmp("filtered.json");
  const auto r = run(kSmall + "--trace " + kSamples + "mqsim/tpcc-small.trace --trace.device=3 --trace.ops=read "
                     "--report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(rep);
  // Independent tally of the DiskSim text: device 3, type 1 (read).
  std::ifstream in(kSamples + "mqsim/tpcc-small.trace");
  uint64_t total = 0, dev3 = 0, dev3_reads = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ss(line);
    double t;
    uint64_t dev, sector, n, type;
    if (!(ss >> t >> dev >> sector >> n >> type)) continue;
    ++total;
    if (dev == 3) ++dev3, dev3_reads += (type & 1);
  }
  EXPECT_EQ(total, 6999u);
  EXPECT_EQ(j["trace"]["records_read"].get<uint64_t>(), total);
  EXPECT_EQ(j["trace"]["replayed"].get<uint64_t>(), dev3_reads);
  EXPECT_EQ(j["trace"]["filtered_by"]["device"].get<uint64_t>(), total - dev3);
  EXPECT_EQ(j["trace"]["filtered_by"]["operation"].get<uint64_t>(), dev3 - dev3_reads);
  EXPECT_EQ(j["read"]["total_ios"].get<uint64_t>(), dev3_reads);
}

TEST(Replay, BadTraceLineGivesFileAndLine) {
  const std::string path = tmp("bad.disksim");
  std::ofstream(path) << "0 0 100 8 1\n1000 0 200 8 0\n2000 0 300 -8 1\n";
  const auto r = run(kSmall + "--trace " + path + " --trace.format=disksim");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(path), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("line 3"), std::string::npos) << r.out;
  const std::string rep = tmp("skipbad.json");
  const auto s = run(kSmall + "--trace " + path + " --trace.format=disksim --trace.skip-bad --report " + rep);
  ASSERT_EQ(s.code, 0) << s.out;
  const auto j = read_json(rep);
  EXPECT_EQ(j["trace"]["skipped_bad"].get<uint64_t>(), 1u);
  EXPECT_EQ(j["trace"]["replayed"].get<uint64_t>(), 2u);
}

// The same IOs, once generated and once replayed from a trace of them, give
// the same per-IO latencies on the same drive.
TEST(Replay, TraceOfSyntheticWorkloadTimesIdentically) {
  // (The export simulates nothing: the drive's state is not its option.)
  const std::string requests = "--seed=4 --workload.rw=randrw --workload.bs=8k --workload.iodepth=8 "
                               "--workload.number_ios=3000 ",
                    drive = kSmall + "--precondition=seq-fill --seed=4 ", work = kSmall + "--precondition=seq-fill " + requests;
  const std::string trace = tmp("synthetic.iolog"), a = tmp("synthetic_lat.csv"), b = tmp("replayed_lat.csv");
  ASSERT_EQ(run(kSmall + requests + "--export-trace " + trace + " --export-trace.format=fio").code, 0);
  ASSERT_EQ(run(work + "--latency-log " + a).code, 0);
  const auto r = run(drive + "--trace " + trace + " --trace.mode=afap --trace.iodepth=8 --latency-log " + b);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto ra = read_csv(a), rb = read_csv(b);
  ASSERT_EQ(ra.size(), 3001u);
  ASSERT_EQ(rb.size(), ra.size());
  EXPECT_EQ(ra[0], rb[0]);
  // Columns: id,op,lba,bytes,arrival,start,completion,host_wait,device_latency.
  for (size_t i = 1; i < ra.size(); ++i) {
    ASSERT_EQ(ra[i][1], rb[i][1]) << "row " << i;
    ASSERT_EQ(ra[i][2], rb[i][2]) << "row " << i;
    ASSERT_EQ(ra[i][3], rb[i][3]) << "row " << i;
    ASSERT_EQ(ra[i][6], rb[i][6]) << "row " << i;
    ASSERT_EQ(ra[i][8], rb[i][8]) << "row " << i;
  }
}

// A blktrace export writes NAME.blktrace.0 and nothing at NAME itself: an
// empty NAME (the early check for writability once made one) is what a
// replay of NAME opened, reading no records.
TEST(Replay, BlktraceExportReplaysEveryRequest) {
  const std::string name = tmp("exported-blktrace"), rep = tmp("exported-blktrace.json");
  std::filesystem::remove(name);
  ASSERT_EQ(run(kSmall + "--workload.number_ios=500 --export-trace " + name + " --export-trace.format=blktrace").code, 0);
  EXPECT_FALSE(std::filesystem::exists(name));
  EXPECT_TRUE(std::filesystem::exists(name + ".blktrace.0"));
  const auto r = run(kSmall + "--trace " + name + " --trace.format=blktrace --report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(read_json(rep)["trace"]["replayed"].get<uint64_t>(), 500u);
}

TEST(Outputs, LatencyLogAndTimeSeriesAddUpToTheReport) {
  const std::string rep = tmp("ts.json"), lat = tmp("ts_lat.csv"), ts = tmp("ts.csv");
  const auto r = run(kSmall + "--trace " + kSamples + "mqsim/tpcc-small.trace --timeseries.interval=100ms "
                     "--latency-log " + lat + " --timeseries " + ts + " --report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(rep);
  const auto lrows = read_csv(lat), trows = read_csv(ts);
  const uint64_t ios = j["read"]["total_ios"].get<uint64_t>() + j["write"]["total_ios"].get<uint64_t>();
  EXPECT_EQ(lrows.size() - 1, ios);
  // Per-interval IOPS x the interval's length summed over the series = IOs
  // per op; every interval is 100 ms but the last, which ends with the run.
  double reads = 0, writes = 0;
  for (size_t i = 1; i < trows.size(); ++i) {
    const double len = std::stod(trows[i][14]);
    if (i + 1 < trows.size()) {
      ASSERT_DOUBLE_EQ(len, 0.1) << "row " << i;
    }
    reads += std::stod(trows[i][1]) * len, writes += std::stod(trows[i][5]) * len;
  }
  const uint64_t end_ns = j["device"]["simulated_time_ns"].get<uint64_t>();
  EXPECT_NEAR(std::stod(trows.back()[14]), double(end_ns % 100000000) / 1e9, 1e-9);
  EXPECT_NEAR(reads, j["read"]["total_ios"].get<double>(), 0.5);
  EXPECT_NEAR(writes, j["write"]["total_ios"].get<double>(), 0.5);
  // One row per 100 ms interval up to the last completion.
  const uint64_t sim_ns = j["device"]["simulated_time_ns"].get<uint64_t>();
  EXPECT_EQ(trows.size() - 1, sim_ns / 100000000 + 1);
  // The latency log's device latency never exceeds the total latency.
  uint64_t max_total = 0;
  for (size_t i = 1; i < lrows.size(); ++i) {
    const uint64_t total = std::stoull(lrows[i][6]) - std::stoull(lrows[i][4]);
    ASSERT_LE(std::stoull(lrows[i][8]), total);
    ASSERT_EQ(std::stoull(lrows[i][7]) + std::stoull(lrows[i][8]), total);
    max_total = std::max(max_total, total);
  }
  EXPECT_EQ(max_total, std::max(j["read"]["lat_ns"]["max"].get<uint64_t>(), j["write"]["lat_ns"]["max"].get<uint64_t>()));

  // Each interval's p50/p99/p99.9 against the exact order statistics of the
  // latency log's rows completing in that interval (fio's rank ceil(p% x n)),
  // within the histogram's 0.8 % (plus the CSV's 1 ns rounding); an interval
  // without IOs of a kind has empty percentile cells.
  const auto& head = trows[0];
  const auto col = [&](const std::string& name) {
    const size_t c = size_t(std::find(head.begin(), head.end(), name) - head.begin());
    EXPECT_LT(c, head.size()) << name;
    return c;
  };
  std::map<std::pair<size_t, std::string>, std::vector<uint64_t>> lats;  // (interval, op) -> total latencies
  for (size_t i = 1; i < lrows.size(); ++i)
    lats[{size_t(std::stoull(lrows[i][6]) / 100000000), lrows[i][1]}].push_back(std::stoull(lrows[i][6]) -
                                                                               std::stoull(lrows[i][4]));
  size_t checked = 0, empty = 0;
  for (size_t i = 1; i < trows.size(); ++i)
    for (const std::string op : {"read", "write", "trim"})
      for (const auto& [p, name] : {std::pair{50.0, "p50"}, {99.0, "p99"}, {99.9, "p99.9"}}) {
        const size_t c = col(op + "_lat_" + name + "_us");
        const std::string cell = c < trows[i].size() ? trows[i][c] : "";  // a trailing empty cell is dropped
        std::vector<uint64_t>& v = lats[{i - 1, op}];
        if (v.empty()) {
          EXPECT_EQ(cell, "") << "row " << i << " " << op << " " << name;
          ++empty;
          continue;
        }
        std::sort(v.begin(), v.end());
        const size_t rank = std::max<size_t>(1, size_t(std::ceil(p / 100.0 * double(v.size()))));
        const double exact = double(v[rank - 1]);
        ASSERT_FALSE(cell.empty()) << "row " << i << " " << op << " " << name;
        EXPECT_NEAR(std::stod(cell) * 1e3, exact, exact * 0.008 + 1.0) << "row " << i << " " << op << " " << name;
        ++checked;
      }
  EXPECT_GT(checked, 30u);  // the trace has reads and writes in most intervals
  EXPECT_GT(empty, 0u);     // and no trims
}

}  // namespace replay_test

