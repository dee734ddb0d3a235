#pragma once
// Per-IO outputs, written while the simulation runs (constant memory):
// LatencyLog, one CSV row per IO (or one line per IO in fio's write_lat_log
// format, which fio's log tools read); TimeSeries, one CSV row per interval of
// simulated time with IOPS, MB/s, mean, max and p50/p99/p99.9 latency per
// operation (percentiles from a LatencyStats histogram reset every interval:
// within 0.8 % of the exact order statistic).
// Both expect completions in non-decreasing completion time, which is how
// the host reports them.

#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "model/host/io_source.h"
#include "model/host/latency_stats.h"

namespace ssd {

// A log that stopped taking rows (a full disk): thrown from add() so the run
// stops within about a buffer's worth of rows, not after hours simulated
// into a file that keeps none of them. `option` names the log's option.
struct LogWriteFailed : std::runtime_error {
  LogWriteFailed(const char* opt, const std::string& what) : std::runtime_error(what), option(opt) {}
  const char* option;
};

class LatencyLog {
 public:
  // `fio`: fio's latency log lines "msec, lat nsec, ddir, bs, offset, prio"
  // (no header; FLUSH, which fio's ddir 0/1/2 cannot name, is left out).
  explicit LatencyLog(const std::string& path, bool fio = false);  // throws std::runtime_error if it cannot write
  ~LatencyLog();
  void add(const IoCompletion& c);
  void close();

 private:
  std::FILE* f_ = nullptr;
  std::string path_;
  bool fio_;
  uint64_t rows_ = 0;
};

// The most rows a --timeseries writes (about 1.5 GB of CSV).
inline constexpr uint64_t kMaxTimeSeriesRows = 10'000'000;

class TimeSeries {
 public:
  TimeSeries(const std::string& path, sc_core::sc_time interval);
  ~TimeSeries();
  void add(const IoCompletion& c);
  // Writes the last interval, which ends at `end_ns` (the run's end).
  void close(uint64_t end_ns = UINT64_MAX);

 private:
  struct Bucket {
    uint64_t ios = 0, bytes = 0, lat_sum = 0, lat_max = 0;
    LatencyStats lat;  // this interval's latencies, for the percentiles
  };
  void flush_interval(uint64_t length_ns);

  std::FILE* f_ = nullptr;
  std::string path_;
  uint64_t interval_ns_;
  uint64_t index_ = 0;  // current interval (= rows written)
  std::array<Bucket, 4> ops_{};
  bool any_ = false;
};

}  // namespace ssd
