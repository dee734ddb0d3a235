#include "model/sim/fio_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ssd {

using nlohmann::json;

namespace {

// fio's latency buckets: a value goes to the first bucket whose edge is above it.
constexpr std::array<uint64_t, 10> kEdges{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
constexpr std::array<uint64_t, 11> kEdgesMs{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000};

template <size_t N>
size_t bucket(const std::array<uint64_t, N>& edges, uint64_t v) {
  return size_t(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin());
}

}  // namespace

json latency_json(const LatencyStats& l, bool bins, bool percentiles_when_empty) {
  json j{{"min", l.min()}, {"max", l.max()}, {"mean", l.mean()}, {"stddev", l.stddev()}, {"N", l.count()}};
  if (l.count() || percentiles_when_empty) {
    json p = json::object();
    for (double q : LatencyStats::fio_percentiles()) {
      char key[32];
      std::snprintf(key, sizeof key, "%f", q);
      p[key] = l.percentile(q);
    }
    j["percentile"] = p;
    if (bins) {
      json b = json::object();
      for (const auto& [value, n] : l.bins()) b[std::to_string(value)] = n;
      j["bins"] = b;
    }
  }
  return j;
}

namespace {

// min, max, mean, stddev (n - 1, as fio) and count of per-interval samples.
struct SampleStats {
  double min = 0, max = 0, mean = 0, dev = 0;
  size_t n = 0;
};
SampleStats summarise(const std::vector<double>& v) {
  SampleStats s;
  s.n = v.size();
  if (v.empty()) return s;
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / double(v.size());
  if (v.size() > 1) {
    double sq = 0;
    for (double x : v) sq += (x - s.mean) * (x - s.mean);
    s.dev = std::sqrt(sq / double(v.size() - 1));
  }
  return s;
}

json percent_map(const uint64_t* counts, size_t n, const char* const* names, uint64_t total) {
  json m = json::object();
  for (size_t i = 0; i < n; ++i) {
    double pct = total ? 100.0 * double(counts[i]) / double(total) : 0.0;
    if (counts[i] && pct < 0.01) pct = 0.01;  // fio shows any non-empty bucket as at least 0.01 %
    m[names[i]] = pct;
  }
  return m;
}

}  // namespace

void FioReport::Samples::add(uint64_t t_ns, uint64_t start_ns, uint64_t interval_ns, uint64_t amount) {
  // Most samples fall in the interval being counted: no division for them.
  if (t_ns - start_ns >= (index + 1) * interval_ns) {
    const uint64_t idx = (t_ns - start_ns) / interval_ns;
    while (index < idx) done.push_back(current), current = 0, ++index;
  }
  current += amount;
}

FioReport::FioReport(std::vector<FioJobInfo> jobs, FioOptionList global) : global_(std::move(global)) {
  for (auto& info : jobs) {
    Job j;
    j.info = std::move(info);
    jobs_.push_back(std::move(j));
  }
}

void FioReport::add(const IoCompletion& c) {
  Job& j = jobs_.at(c.stream);
  const uint64_t done = ssdtlm::to_ns(c.completion), start = ssdtlm::to_ns(j.info.ramp_time);
  if (done < start) return;  // ramp_time: not counted
  const size_t op = size_t(c.request.op);
  const uint64_t clat = ssdtlm::to_ns(c.completion - c.start);
  if (!mirrors_host()) {
    OpStats& s = j.ops[op];
    s.lat.add(ssdtlm::to_ns(c.completion - c.arrival));
    s.clat.add(clat);
    s.slat.add(ssdtlm::to_ns(c.start - c.arrival));
    s.bytes += c.request.bytes;
  }
  j.last_ns = std::max(j.last_ns, done);
  if (op > 2) return;  // FLUSH: fio's sync block has no bandwidth or buckets
  j.iops[op].add(done, start, ssdtlm::to_ns(j.info.iops_interval), 1);
  j.bw[op].add(done, start, ssdtlm::to_ns(j.info.bw_interval), c.request.bytes);
  if (clat < 1000) ++j.lat_n[bucket(kEdges, clat)];
  else if (clat < 1000000) ++j.lat_u[bucket(kEdges, clat / 1000)];
  else ++j.lat_m[bucket(kEdgesMs, clat / 1000000)];
}

json FioReport::job_json(const Job& j, double agg[3], bool json_plus) const {
  const uint64_t start = ssdtlm::to_ns(j.info.ramp_time);
  const uint64_t runtime_ns = j.last_ns > start ? j.last_ns - start : 0;
  const double secs = double(runtime_ns) / 1e9;
  json job;
  job["jobname"] = j.info.name;
  job["groupid"] = 0;
  job["job_start"] = 0;
  job["error"] = 0;
  job["eta"] = 0;
  job["elapsed"] = uint64_t(std::ceil(double(j.last_ns) / 1e9));
  json opts = json::object();
  for (const auto& [k, v] : j.info.options) opts[k] = v;
  job["job options"] = opts;
  const char* names[] = {"read", "write", "trim"};
  uint64_t rw_ios = 0;
  for (int op = 0; op < 3; ++op) {
    const OpStats& s = stats(j, op);
    const uint64_t ios = s.lat.count();
    rw_ios += ios;
    json d;
    const uint64_t bw_bytes = secs > 0 ? uint64_t(double(s.bytes) / secs) : 0;
    d["io_bytes"] = s.bytes;
    d["io_kbytes"] = s.bytes >> 10;
    d["bw_bytes"] = bw_bytes;
    d["bw"] = bw_bytes / 1024;  // KiB/s, truncated as fio
    d["iops"] = secs > 0 ? double(ios) / secs : 0.0;
    d["runtime"] = ios ? runtime_ns / 1000000 : 0;  // ms
    d["total_ios"] = ios;
    d["short_ios"] = 0;
    d["drop_ios"] = 0;
    d["slat_ns"] = latency_json(s.slat, false);
    d["clat_ns"] = latency_json(s.clat, json_plus);
    d["lat_ns"] = latency_json(s.lat, false);
    // One sample per whole interval up to the job's last completion.
    auto samples = [&](const Samples& smp, sc_core::sc_time interval, double scale) {
      std::vector<double> v;
      if (!ios) return v;
      const uint64_t iv = ssdtlm::to_ns(interval), whole = runtime_ns / iv;
      for (uint64_t i = 0; i < whole; ++i) {
        const uint64_t n = i < smp.done.size() ? smp.done[i] : i == smp.index ? smp.current : 0;
        v.push_back(double(n) / interval.to_seconds() * scale);
      }
      return v;
    };
    const SampleStats bw = summarise(samples(j.bw[op], j.info.bw_interval, 1.0 / 1024));
    d["bw_min"] = uint64_t(bw.min);
    d["bw_max"] = uint64_t(bw.max);
    d["bw_agg"] = agg[op] > 0 ? std::min(100.0, bw.mean * 1024 * 100 / agg[op]) : 0.0;
    d["bw_mean"] = bw.mean;
    d["bw_dev"] = bw.dev;
    d["bw_samples"] = bw.n;
    const SampleStats io = summarise(samples(j.iops[op], j.info.iops_interval, 1.0));
    d["iops_min"] = uint64_t(io.min);
    d["iops_max"] = uint64_t(io.max);
    d["iops_mean"] = io.mean;
    d["iops_stddev"] = io.dev;
    d["iops_samples"] = io.n;
    job[names[op]] = d;
  }
  job["sync"] = {{"total_ios", stats(j, 3).lat.count()}, {"lat_ns", latency_json(stats(j, 3).lat, false)}};
  job["job_runtime"] = runtime_ns / 1000000;
  job["usr_cpu"] = 0.0;
  job["sys_cpu"] = 0.0;
  job["ctx"] = 0;
  job["majf"] = 0;
  job["minf"] = 0;
  static const char* const n_names[] = {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"};
  static const char* const m_names[] = {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000"};
  job["latency_ns"] = percent_map(j.lat_n.data(), 10, n_names, rw_ios);
  job["latency_us"] = percent_map(j.lat_u.data(), 10, n_names, rw_ios);
  job["latency_ms"] = percent_map(j.lat_m.data(), 12, m_names, rw_ios);
  return job;
}

json FioReport::envelope(const std::string& version, bool json_plus) const {
  // The group's aggregate bandwidth per direction (every job is in group 0):
  // all bytes over the longest job runtime, as fio's bw_agg denominator.
  double agg[3] = {0, 0, 0};
  uint64_t longest = 0;
  for (const Job& j : jobs_) {
    const uint64_t start = ssdtlm::to_ns(j.info.ramp_time);
    longest = std::max(longest, j.last_ns > start ? j.last_ns - start : 0);
  }
  for (const Job& j : jobs_)
    for (int op = 0; op < 3; ++op) agg[op] += double(stats(j, size_t(op)).bytes);
  for (double& a : agg) a = longest ? a / (double(longest) / 1e9) : 0;

  json e;
  e["fio version"] = "ssdsim-" + version;
  e["timestamp"] = 0;  // simulated: a run has no wall-clock date, and reports stay bit-identical
  e["timestamp_ms"] = 0;
  e["time"] = "Thu Jan  1 00:00:00 1970";
  json g = json::object();
  for (const auto& [k, v] : global_) g[k] = v;
  e["global options"] = g;
  json jobs = json::array();
  for (const Job& j : jobs_) jobs.push_back(job_json(j, agg, json_plus));
  e["jobs"] = jobs;
  return e;
}

}  // namespace ssd
