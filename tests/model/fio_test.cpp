// fio compatibility end to end: the JSON envelope's numbers recomputed here
// from the per-IO latency log (fio's definitions: bw = io_bytes / runtime,
// latency buckets over clat, per-interval IOPS samples), the output formats,
// and job files (concurrent jobs, bssplit, rate_iops, thinktime, fsync,
// ramp_time, runtime, distributions) checked against their definitions.
#include <cmath>
#include <map>
#include <set>

#include "tests/model/cli_util.h"

namespace fio_test {

using ssdtest::read_csv;
using ssdtest::read_json;
using ssdtest::Result;
using ssdtest::run;
using ssdtest::tmp;

const std::string kSmall =
    "--nand.channels=4 --nand.dies_per_channel=2 --nand.blocks_per_plane=64 --nand.pages_per_block=64 ";

// One latency-log row (CSV columns: id,op,lba,bytes,arrival,start,completion,host_wait,device_latency,job).
struct Io {
  uint64_t id;
  std::string op;
  uint64_t offset, bytes, arrival, start, done, job;
};
std::vector<Io> read_log(const std::string& path) {
  std::vector<Io> ios;
  const auto rows = read_csv(path);
  for (size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    ios.push_back({std::stoull(r[0]), r[1], std::stoull(r[2]) * 512, std::stoull(r[3]), std::stoull(r[4]),
                   std::stoull(r[5]), std::stoull(r[6]), std::stoull(r[9])});
  }
  return ios;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = tmp(name);
  std::ofstream(path) << text;
  return path;
}

// The per-direction block of a job, recomputed from its IOs with fio's definitions.
void expect_direction_matches(const nlohmann::json& d, const std::vector<Io>& ios, const std::string& op,
                              uint64_t start_ns, uint64_t end_ns, uint64_t interval_ns) {
  uint64_t n = 0, bytes = 0;
  double clat_sum = 0;
  uint64_t lat_min = UINT64_MAX, lat_max = 0;
  for (const Io& io : ios) {
    if (io.op != op || io.done < start_ns) continue;
    ++n, bytes += io.bytes, clat_sum += double(io.done - io.start);
    lat_min = std::min(lat_min, io.done - io.arrival), lat_max = std::max(lat_max, io.done - io.arrival);
  }
  ASSERT_EQ(d["total_ios"].get<uint64_t>(), n) << op;
  if (n == 0) return;
  const double secs = double(end_ns - start_ns) / 1e9;
  EXPECT_EQ(d["io_bytes"].get<uint64_t>(), bytes);
  EXPECT_EQ(d["io_kbytes"].get<uint64_t>(), bytes / 1024);
  EXPECT_EQ(d["runtime"].get<uint64_t>(), (end_ns - start_ns) / 1000000);
  EXPECT_NEAR(d["bw"].get<double>(), double(bytes) / secs / 1024, 1.0);  // KiB/s, truncated
  EXPECT_NEAR(d["bw_bytes"].get<double>(), double(bytes) / secs, 1.0);
  EXPECT_NEAR(d["iops"].get<double>(), double(n) / secs, 1e-6 * double(n) / secs);
  // The log has each time in whole ns; the statistics truncate each difference: within 1 ns.
  EXPECT_NEAR(d["clat_ns"]["mean"].get<double>(), clat_sum / double(n), 1.0);
  EXPECT_EQ(d["clat_ns"]["N"].get<uint64_t>(), n);
  EXPECT_NEAR(d["lat_ns"]["min"].get<double>(), double(lat_min), 1.0);
  EXPECT_NEAR(d["lat_ns"]["max"].get<double>(), double(lat_max), 1.0);
  // One IOPS sample per whole interval from the job's start; the partial last one is dropped.
  const uint64_t whole = (end_ns - start_ns) / interval_ns;
  std::vector<double> samples(whole, 0.0);
  for (const Io& io : ios)
    if (io.op == op && io.done >= start_ns && (io.done - start_ns) / interval_ns < whole)
      samples[(io.done - start_ns) / interval_ns] += 1e9 / double(interval_ns);
  ASSERT_EQ(d["iops_samples"].get<uint64_t>(), whole);
  ASSERT_GE(whole, 3u) << "the test needs a few samples";
  double mean = 0, var = 0;
  for (double s : samples) mean += s / double(whole);
  for (double s : samples) var += (s - mean) * (s - mean) / double(whole - 1);
  EXPECT_NEAR(d["iops_mean"].get<double>(), mean, 1e-6 * mean);
  EXPECT_NEAR(d["iops_stddev"].get<double>(), std::sqrt(var), 1e-6 * mean);
}

// fio's clat buckets: percent of the job's reads+writes+trims (at least 0.01 when non-empty).
void expect_buckets_match(const nlohmann::json& job, const std::vector<Io>& ios, uint64_t start_ns) {
  const std::vector<uint64_t> edges{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
  const std::vector<std::string> names{"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"};
  std::map<std::string, double> us, ms;
  uint64_t total = 0;
  for (const Io& io : ios) {
    if (io.op == "flush" || io.done < start_ns) continue;
    ++total;
    const uint64_t clat = io.done - io.start;
    ASSERT_GE(clat, 1000u) << "no device completes in under 1 us";
    if (clat < 1000000) {
      size_t i = 0;
      while (i < edges.size() && clat / 1000 >= edges[i]) ++i;
      us[names[i]] += 1;
    } else {
      const uint64_t m = clat / 1000000;
      ms[m >= 2000 ? ">=2000" : m >= 1000 ? "2000" : [&] { size_t i = 0; while (m >= edges[i]) ++i; return names[i]; }()] += 1;
    }
  }
  auto pct = [&](double n) { return n == 0 ? 0.0 : std::max(0.01, 100.0 * n / double(total)); };
  double sum = 0;
  for (const auto& [k, v] : job["latency_us"].items()) {
    EXPECT_NEAR(v.get<double>(), pct(us[k]), 1e-9) << "us " << k;
    sum += v.get<double>();
  }
  for (const auto& [k, v] : job["latency_ms"].items()) {
    EXPECT_NEAR(v.get<double>(), pct(ms[k]), 1e-9) << "ms " << k;
    sum += v.get<double>();
  }
  for (const auto& [k, v] : job["latency_ns"].items()) EXPECT_EQ(v.get<double>(), 0.0) << "ns " << k;
  EXPECT_EQ(job["latency_us"].size(), 10u);
  EXPECT_EQ(job["latency_ms"].size(), 12u);
  EXPECT_NEAR(sum, 100.0, 0.2);
}

TEST(FioEnvelope, WorkloadJobMatchesTheLatencyLogAndTheTopLevelReport) {
  const std::string rep = tmp("env.json"), lat = tmp("env_lat.csv");
  const Result r = run(kSmall + "--workload.rw=randrw --workload.number_ios=3000 --workload.iodepth=8 "
                       "--report.avgtime=20ms --latency-log " + lat + " --report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(rep);
  const auto ios = read_log(lat);
  ASSERT_EQ(ios.size(), 3000u);
  EXPECT_EQ(j["fio version"].get<std::string>().rfind("ssdsim-", 0), 0u);
  EXPECT_EQ(j["timestamp"], 0);
  EXPECT_TRUE(j["global options"].is_object());
  ASSERT_EQ(j["jobs"].size(), 1u);
  const auto& job = j["jobs"][0];
  EXPECT_EQ(job["jobname"], "workload");
  EXPECT_EQ(job["groupid"], 0);
  EXPECT_EQ(job["job options"]["rw"], "randrw");
  EXPECT_EQ(job["job options"]["iodepth"], "8");
  uint64_t end = 0;
  for (const Io& io : ios) end = std::max(end, io.done);
  EXPECT_EQ(job["job_runtime"].get<uint64_t>(), end / 1000000);
  for (const char* op : {"read", "write"}) {
    SCOPED_TRACE(op);
    expect_direction_matches(job[op], ios, op, 0, end, 20000000);
    // Same IOs as the drive-level section.
    EXPECT_EQ(job[op]["total_ios"], j[op]["total_ios"]);
    EXPECT_EQ(job[op]["io_bytes"], j[op]["io_bytes"]);
    EXPECT_EQ(job[op]["lat_ns"]["mean"], j[op]["lat_ns"]["mean"]);
    EXPECT_EQ(job[op]["runtime"], j[op]["runtime"]);
  }
  EXPECT_EQ(job["trim"]["total_ios"], 0);
  expect_buckets_match(job, ios, 0);
  EXPECT_EQ(job["usr_cpu"], 0.0);
  EXPECT_FALSE(job["read"]["clat_ns"].contains("bins")) << "bins only with json+";
}

TEST(FioOutput, JsonAloneOnStdout) {
  const Result r = run(kSmall + "--workload.number_ios=500 --output-format=json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);  // throws unless stdout (and stderr) is only the JSON
  EXPECT_EQ(j["read"]["total_ios"].get<uint64_t>() + j["write"]["total_ios"].get<uint64_t>(), 500u);
  EXPECT_TRUE(j.contains("jobs"));
}

TEST(FioOutput, OutputFileGetsTheSelectedFormatAndStdoutNothing) {
  const std::string out = tmp("out.json"), rep = tmp("out_report.json");
  const Result r = run(kSmall + "--workload.number_ios=500 --output-format=json+ --output " + out + " --report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "");
  const auto j = read_json(out);
  EXPECT_EQ(j.dump(), read_json(rep).dump()) << "--report keeps writing the same JSON";
  // json+: clat_ns.bins holds every IO, keyed by latency in ns within [min, max].
  for (const char* op : {"read", "write"}) {
    const auto& c = j["jobs"][0][op]["clat_ns"];
    uint64_t n = 0;
    for (const auto& [k, v] : c["bins"].items()) {
      EXPECT_GE(std::stoull(k), c["min"].get<uint64_t>());
      EXPECT_LE(std::stoull(k), c["max"].get<uint64_t>());
      n += v.get<uint64_t>();
    }
    EXPECT_EQ(n, c["N"].get<uint64_t>()) << op;
  }
  const Result normal = run(kSmall + "--workload.number_ios=500 --output-format=normal");
  EXPECT_NE(normal.out.find("read :"), std::string::npos);
  EXPECT_EQ(normal.out.find("\"jobs\""), std::string::npos);
}

TEST(FioOutput, BadFormatNamesTheOption) {
  const Result r = run(kSmall + "--output-format=xml");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("option '--output-format': 'xml' is not one of: normal, json, json+"), std::string::npos) << r.out;
  const Result o = run(kSmall + "--output /nonexistent/dir/x.json");
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.out.find("option '--output': /nonexistent/dir/x.json: cannot open for writing"), std::string::npos) << o.out;
}

TEST(FioLatencyLog, FioFormatHasFiosColumnsAndUnits) {
  const std::string csv = tmp("flog.csv"), fio = tmp("flog_lat.log");
  const std::string work = kSmall + "--workload.rw=randrw --workload.number_ios=400 ";
  ASSERT_EQ(run(work + "--latency-log " + csv).code, 0);
  ASSERT_EQ(run(work + "--latency-log " + fio + " --latency-log.format=fio").code, 0);
  const auto ios = read_log(csv);
  const auto rows = read_csv(fio);  // no header: one line per IO, in completion order as the CSV
  ASSERT_EQ(rows.size(), ios.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 6u);
    EXPECT_EQ(std::stoull(rows[i][0]), ios[i].done / 1000000) << "msec";
    EXPECT_EQ(std::stoull(rows[i][1]), ios[i].done - ios[i].arrival) << "lat nsec";
    EXPECT_EQ(std::stoi(rows[i][2]), ios[i].op == "read" ? 0 : 1) << "ddir";
    EXPECT_EQ(std::stoull(rows[i][3]), ios[i].bytes);
    EXPECT_EQ(std::stoull(rows[i][4]), ios[i].offset);
  }
}

// ---- job files

TEST(FioJob, ConcurrentJobsEachReportedAndKeptInTheirSpans) {
  const std::string job = write_file("two.fio",
                                     "; a reader and a writer at once\n[global]\nioengine=libaio\ndirect=1\n\n"
                                     "[reader]\nrw=randread\nbs=4k\niodepth=4\nsize=16m\nnumber_ios=2000\n"
                                     "[writer]\nrw=write\nbs=8k\niodepth=2\noffset=32m\nsize=8m\nnumber_ios=500\n");
  const std::string rep = tmp("two.json"), lat = tmp("two_lat.csv");
  const Result r = run(kSmall + "--job " + job + " --report " + rep + " --latency-log " + lat);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(rep);
  ASSERT_EQ(j["jobs"].size(), 2u);
  EXPECT_EQ(j["global options"]["ioengine"], "libaio");
  EXPECT_EQ(j["jobs"][0]["jobname"], "reader");
  EXPECT_EQ(j["jobs"][1]["jobname"], "writer");
  EXPECT_EQ(j["jobs"][0]["job options"]["size"], "16m");
  EXPECT_EQ(j["jobs"][0]["read"]["total_ios"], 2000);
  EXPECT_EQ(j["jobs"][0]["write"]["total_ios"], 0);
  EXPECT_EQ(j["jobs"][1]["write"]["total_ios"], 500);
  EXPECT_EQ(j["read"]["total_ios"], 2000);  // the drive-level sections add the jobs up
  EXPECT_EQ(j["write"]["total_ios"], 500);
  const auto ios = read_log(lat);
  uint64_t reader_end = 0, writer_first = UINT64_MAX, expected_next = 32u << 20;
  std::map<uint64_t, uint64_t> writer_offsets;  // id -> offset
  for (const Io& io : ios) {
    if (io.job == 0) {
      EXPECT_LT(io.offset + io.bytes, (16u << 20) + 1);
      reader_end = std::max(reader_end, io.done);
    } else {
      EXPECT_EQ(io.bytes, 8192u);
      writer_first = std::min(writer_first, io.start);
      writer_offsets[io.id] = io.offset;
    }
  }
  EXPECT_LT(writer_first, reader_end) << "jobs run concurrently";
  for (const auto& [id, off] : writer_offsets) {  // sequential from offset, wrapping within size
    EXPECT_EQ(off, expected_next) << "write " << id;
    expected_next = off + 8192 >= (40u << 20) ? 32u << 20 : off + 8192;
  }
  for (size_t i = 0; i < 2; ++i) {
    uint64_t end = 0;
    std::vector<Io> mine;
    for (const Io& io : ios)
      if (io.job == i) mine.push_back(io), end = std::max(end, io.done);
    expect_buckets_match(j["jobs"][i], mine, 0);
  }
}

TEST(FioJob, NumjobsClonesAreSeparateJobsWithTheirOwnOffsets) {
  const std::string job = write_file("clones.fio", "[r]\nrw=randread\nsize=64m\nnumber_ios=200\nnumjobs=3\niodepth=2\n");
  const std::string rep = tmp("clones.json"), lat = tmp("clones.csv");
  ASSERT_EQ(run(kSmall + "--job " + job + " --report " + rep + " --latency-log " + lat).code, 0);
  const auto j = read_json(rep);
  ASSERT_EQ(j["jobs"].size(), 3u);
  std::vector<std::set<uint64_t>> offsets(3);
  for (const Io& io : read_log(lat)) offsets.at(io.job).insert(io.offset);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(j["jobs"][i]["jobname"], "r");
    EXPECT_EQ(j["jobs"][i]["read"]["total_ios"], 200);
  }
  EXPECT_NE(offsets[0], offsets[1]);
  EXPECT_NE(offsets[1], offsets[2]);
}

TEST(FioJob, BssplitSizeLimitAndFsync) {
  // bssplit shares; no number_ios: the job ends after size bytes (fio's io_size default); fsync=8.
  const std::string job = write_file("mix.fio", "[w]\nrw=randwrite\nbssplit=4k/25:16k/\nsize=8m\nfsync=8\niodepth=4\n");
  const std::string rep = tmp("mix.json"), lat = tmp("mix.csv");
  const Result r = run(kSmall + "--job " + job + " --report " + rep + " --latency-log " + lat);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(rep);
  uint64_t small = 0, big = 0, bytes = 0, flushes = 0, last_bytes = 0;
  for (const Io& io : read_log(lat)) {
    if (io.op == "flush") {
      ++flushes;
      continue;
    }
    EXPECT_TRUE(io.bytes == 4096 || io.bytes == 16384) << io.bytes;
    (io.bytes == 4096 ? small : big) += 1;
    bytes += io.bytes;
  }
  const uint64_t writes = small + big;
  EXPECT_NEAR(double(big) / double(writes), 0.75, 0.05);
  // Issuing stops once 8 MiB is issued: the last write crossed the limit.
  last_bytes = bytes;
  EXPECT_GE(last_bytes, 8u << 20);
  EXPECT_LT(last_bytes, (8u << 20) + 16384);
  EXPECT_EQ(flushes, writes / 8);
  EXPECT_EQ(j["jobs"][0]["sync"]["total_ios"].get<uint64_t>(), writes / 8);
  EXPECT_EQ(j["flush"]["total_ios"].get<uint64_t>(), writes / 8);
  EXPECT_EQ(j["jobs"][0]["write"]["io_bytes"].get<uint64_t>(), bytes);
}

TEST(FioJob, RateIopsArrivalsAndRampTime) {
  // 1000 IOPS open loop: IO k arrives at k ms. ramp_time=100ms drops the
  // IOs completing before it from the job (not from the drive-level sections).
  const std::string job = write_file("rate.fio", "[r]\nrw=randread\nsize=16m\nrate_iops=1000\nnumber_ios=300\n"
                                                 "iodepth=4\nramp_time=100ms\niopsavgtime=20\n");
  const std::string rep = tmp("rate.json"), lat = tmp("rate.csv");
  ASSERT_EQ(run(kSmall + "--job " + job + " --report " + rep + " --latency-log " + lat).code, 0);
  const auto j = read_json(rep);
  const auto ios = read_log(lat);
  ASSERT_EQ(ios.size(), 300u);
  uint64_t end = 0;
  for (const Io& io : ios) {
    EXPECT_EQ(io.arrival, io.id * 1000000) << io.id;
    end = std::max(end, io.done);
  }
  EXPECT_EQ(j["read"]["total_ios"], 300);
  expect_direction_matches(j["jobs"][0]["read"], ios, "read", 100000000, end, 20000000);
  EXPECT_EQ(j["jobs"][0]["job_runtime"].get<uint64_t>(), (end - 100000000) / 1000000);
}

TEST(FioJob, ThinktimeAndTimeBasedRuntime) {
  // iodepth 1, thinktime 300 (us, fio's default unit): each IO arrives 300 us after the previous completes.
  const std::string a = write_file("think.fio", "[t]\nrw=randread\nsize=16m\nthinktime=300\nnumber_ios=50\n");
  const std::string lat = tmp("think.csv");
  ASSERT_EQ(run(kSmall + "--job " + a + " --latency-log " + lat).code, 0);
  const auto ios = read_log(lat);
  ASSERT_EQ(ios.size(), 50u);
  EXPECT_EQ(ios[0].arrival, 0u);
  for (size_t i = 1; i < ios.size(); ++i) EXPECT_EQ(ios[i].arrival, ios[i - 1].done + 300000) << i;
  // runtime=50ms with time_based at 2000 IOPS: arrivals at k/2000 s for k = 0..99.
  const std::string b = write_file("timed.fio", "[t]\nrw=randread\nsize=16m\nrate_iops=2000\nruntime=50ms\ntime_based\niodepth=4\n");
  const std::string rep = tmp("timed.json");
  ASSERT_EQ(run(kSmall + "--job " + b + " --report " + rep).code, 0);
  EXPECT_EQ(read_json(rep)["jobs"][0]["read"]["total_ios"], 100);
}

// Share of the IOs that went to the hottest 10 % of the blocks touched.
double hot_share(const std::vector<Io>& ios) {
  std::map<uint64_t, uint64_t> hits;
  for (const Io& io : ios) ++hits[io.offset];
  std::vector<uint64_t> counts;
  for (const auto& [o, n] : hits) counts.push_back(n);
  std::sort(counts.rbegin(), counts.rend());
  const uint64_t blocks = 4096;  // 16 MiB / 4 KiB
  uint64_t hot = 0;
  for (size_t i = 0; i < std::min<size_t>(counts.size(), blocks / 10); ++i) hot += counts[i];
  return double(hot) / double(ios.size());
}

TEST(FioJob, RandomDistributions) {
  auto ios_of = [](const std::string& dist) {
    const std::string job = write_file("dist.fio", "[d]\nrw=randread\nsize=16m\nnumber_ios=4000\niodepth=8\n"
                                                   "random_distribution=" + dist + "\n");
    const std::string lat = tmp("dist.csv");
    EXPECT_EQ(run(kSmall + "--job " + job + " --latency-log " + lat).code, 0);
    return read_log(lat);
  };
  // Uniform: 4000 draws over 4096 blocks are Poisson(~1) per block; its top
  // 10 % of blocks (3 hits or more, then 2) hold about 30 % of the draws.
  const double uniform = hot_share(ios_of("random"));
  EXPECT_GT(uniform, 0.25);
  EXPECT_LT(uniform, 0.35);
  EXPECT_GT(hot_share(ios_of("zipf:1.2")), 0.6);
  // pareto:0.2 is the 80/20 rule: 20 % of the blocks take 80 % of the IOs.
  EXPECT_GT(hot_share(ios_of("pareto:0.2")), 0.5);
  // normal:10: centred on the span's middle with sigma = 10 % of the span.
  const auto n = ios_of("normal:10");
  double mean = 0, var = 0;
  for (const Io& io : n) mean += double(io.offset) / double(n.size());
  for (const Io& io : n) var += (double(io.offset) - mean) * (double(io.offset) - mean) / double(n.size() - 1);
  EXPECT_NEAR(mean, 8.0 * (1 << 20), 0.02 * 16 * (1 << 20));
  EXPECT_NEAR(std::sqrt(var), 0.1 * 16 * (1 << 20), 0.015 * 16 * (1 << 20));
}

TEST(FioJob, ShippedExampleRunsItsThreeJobs) {
  const std::string rep = tmp("oltp.json");
  const Result r = run(kSmall + "--job " + std::string(SSDSIM_SOURCE_DIR) + "/configs/workloads/oltp-mixed.fio "
                       "--report " + rep);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(rep);
  ASSERT_EQ(j["jobs"].size(), 3u);
  EXPECT_EQ(j["jobs"][0]["jobname"], "data");
  EXPECT_GT(j["jobs"][0]["read"]["total_ios"].get<uint64_t>(), 2 * j["jobs"][0]["write"]["total_ios"].get<uint64_t>());
  // fsync=8; ramp_time and the runtime cut may each split one write/flush pair.
  EXPECT_NEAR(j["jobs"][1]["sync"]["total_ios"].get<double>(), j["jobs"][1]["write"]["total_ios"].get<double>() / 8, 2.0);
  EXPECT_GT(j["jobs"][1]["sync"]["total_ios"].get<uint64_t>(), 10u);
  // The scan is paced at rate_iops=200 and the drive keeps up: 200 IOPS over
  // its runtime, less what the log job's non-queued FLUSHes hold back (each
  // drains every queue, so a scan IO arriving then waits in the host and the
  // last ones can slip past the runtime): within 2 %.
  EXPECT_NEAR(j["jobs"][2]["read"]["iops"].get<double>(), 200.0, 4.0);
  EXPECT_GT(j["jobs"][2]["read"]["slat_ns"]["max"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["global options"]["runtime"], "2s");
}

void expect_job_error(const std::string& text, const std::string& message) {
  const std::string job = write_file("bad.fio", text);
  const Result r = run(kSmall + "--job " + job);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(job + ": " + message), std::string::npos) << r.out;
  EXPECT_EQ(ssdtest::program_lines(r.out), 1) << "one line: " << r.out;
}

TEST(FioJob, BadJobFilesNameFileLineAndOption) {
  expect_job_error("[a]\nrw=randread\niodeptth=4\n", "line 3: unknown fio option 'iodeptth' (did you mean 'iodepth'?)");
  expect_job_error("[a]\nrw=randread\nverify=md5\n", "line 3: fio option 'verify' is not supported by ssdsim");
  expect_job_error("[a]\nrw=randread\nxyzzy=1\n", "line 3: unknown fio option 'xyzzy'\n");
  expect_job_error("[a]\nrw=zigzag\n", "line 2: option 'rw': 'zigzag' is not supported");
  expect_job_error("[a]\nbs=4q\n", "line 2: option 'bs': unknown size unit in '4q'");
  expect_job_error("[a]\nbssplit=4k/60:8k/60\n", "line 2: option 'bssplit': percentages add up to 120");
  expect_job_error("[global]\nruntime=5x\n[a]\n", "line 2: option 'runtime': unknown time unit in '5x'");
  expect_job_error("[a]\nrandom_distribution=zipf:1\n", "line 2: option 'random_distribution': zipf theta");
  expect_job_error("[a]\nsize=1t\n", "line 2: option 'size': span ends at byte");
  expect_job_error("[a]\niodepth=1000\n[b]\niodepth=25\n",
                   "line 4: option 'iodepth': the jobs' iodepth x numjobs add up to 1025 by job 'b', above the host "
                   "queue limit of 1024");
  expect_job_error("[a]\niodepth=1000\n[b]\nnumjobs=2\niodepth=20\n",
                   "line 4: option 'numjobs': the jobs' iodepth x numjobs add up to 1040 by job 'b'");
  // A [global] after the last job would apply to none (fio applies it to the jobs after it).
  expect_job_error("[global]\nrw=write\n[a]\nnumber_ios=10\n[global]\nbs=8k\n",
                   "line 5: a [global] section after the last job applies to no job");
  expect_job_error("rw=read\n", "line 1: option 'rw' outside a [section]");
  expect_job_error("[global]\nrw=read\n", "no job section");
  // One option twice in a section (an alias counts): its later value would silently win.
  expect_job_error("[a]\nbs=4k\nrw=read\nblocksize=8k\n", "line 4: option 'blocksize' again in this section (first on line 2; fio would take the later one)");
  expect_job_error("[global]\nbs=4k\nbs=8k\n[a]\n", "line 3: option 'bs' again in this section (first on line 2; fio would take the later one)");
}

TEST(FioJob, JobFileExcludesWorkloadOptionsAndTraces) {
  const std::string job = write_file("ok.fio", "[a]\nrw=read\nnumber_ios=10\n");
  Result r = run(kSmall + "--job " + job + " --workload.bs=8k");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("option '--workload.bs': cannot be combined with --job"), std::string::npos) << r.out;
  r = run(kSmall + "--job /nonexistent.fio");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("/nonexistent.fio: cannot open job file"), std::string::npos) << r.out;
}

}  // namespace fio_test

