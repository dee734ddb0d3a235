#include "model/sim/io_logs.h"

#include <algorithm>
#include <stdexcept>

#include "model/sim/text.h"
#include "tlm/ssd_protocol.h"

namespace ssd {

using ssdtlm::to_ns;

namespace {
std::FILE* open_csv(const std::string& path, const char* header) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw std::runtime_error(path + ": cannot open for writing");
  std::setvbuf(f, nullptr, _IOFBF, 1 << 20);
  std::fputs(header, f);
  return f;
}

// Asked every kCheckRows rows: the stream's error flag is set once a flush
// of its 1 MiB buffer failed (some ten thousand rows).
constexpr uint64_t kCheckRows = 1024;
void check_written(std::FILE* f, uint64_t rows, const char* option, const std::string& path) {
  if (rows % kCheckRows == 0 && std::ferror(f))
    throw LogWriteFailed(option, path + ": write failed (the run stopped after " + std::to_string(rows) + " rows)");
}
}  // namespace

LatencyLog::LatencyLog(const std::string& path, bool fio)
    : f_(open_csv(path, fio ? "" : "id,op,lba,bytes,arrival_ns,start_ns,completion_ns,host_wait_ns,device_latency_ns,job\n")),
      path_(path), fio_(fio) {}

LatencyLog::~LatencyLog() {
  try {
    close();  // normally already closed; a destructor must not throw
  } catch (...) {
  }
}

void LatencyLog::add(const IoCompletion& c) {
  check_written(f_, ++rows_, "latency-log", path_);
  const uint64_t arrival = to_ns(c.arrival), start = to_ns(c.start), done = to_ns(c.completion);
  if (fio_) {
    if (c.request.op == ssdtlm::HostOp::Flush) return;
    // HostOp Read/Write/Trim are fio's ddir 0/1/2; time is the completion in ms, truncated as fio.
    std::fprintf(f_, "%llu, %llu, %d, %llu, %llu, 0\n", (unsigned long long)(done / 1000000),
                 (unsigned long long)(done - arrival), int(c.request.op), (unsigned long long)c.request.bytes,
                 (unsigned long long)c.request.offset);
    return;
  }
  std::fprintf(f_, "%llu,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%u\n", (unsigned long long)c.request.id,
               ssdtlm::to_string(c.request.op), (unsigned long long)(c.request.offset / 512),
               (unsigned long long)c.request.bytes, (unsigned long long)arrival, (unsigned long long)start,
               (unsigned long long)done, (unsigned long long)(start - arrival), (unsigned long long)(done - start),
               c.stream);
}

void LatencyLog::close() {
  const bool written = !f_ || text::close_written(f_);
  f_ = nullptr;
  if (!written) throw std::runtime_error(path_ + ": write failed");
}

TimeSeries::TimeSeries(const std::string& path, sc_core::sc_time interval)
    : f_(open_csv(path,
                  "time_s,read_iops,read_MBps,read_lat_mean_us,read_lat_max_us,"
                  "write_iops,write_MBps,write_lat_mean_us,write_lat_max_us,"
                  "trim_iops,trim_MBps,trim_lat_mean_us,trim_lat_max_us,flush_iops,interval_s,"
                  "read_lat_p50_us,read_lat_p99_us,read_lat_p99.9_us,write_lat_p50_us,write_lat_p99_us,"
                  "write_lat_p99.9_us,trim_lat_p50_us,trim_lat_p99_us,trim_lat_p99.9_us\n")),
      path_(path), interval_ns_(to_ns(interval)) {}

TimeSeries::~TimeSeries() {
  try {
    close();
  } catch (...) {
  }
}

void TimeSeries::flush_interval(uint64_t length_ns) {
  // A row per interval, empty ones too: an interval far shorter than the run
  // would fill the disk (1 ns over a 0.2 s run: 2e8 rows), so the rows are
  // bounded and the run stops, naming the option, past the bound.
  if (index_ == kMaxTimeSeriesRows)
    throw LogWriteFailed("timeseries.interval",
                         path_ + ": more than " + std::to_string(kMaxTimeSeriesRows) + " rows of " +
                             std::to_string(interval_ns_) + " ns each (the run stopped at " +
                             std::to_string(double(index_) * double(interval_ns_) / 1e9) +
                             " s simulated): choose a longer interval");
  // Rates are per second of the interval's own length (the last one ends
  // with the run); an interval without IOs of a kind has no latency, so
  // those cells stay empty rather than reading as 0 on a log axis.
  const double secs = double(length_ns) / 1e9;
  std::fprintf(f_, "%.9g", double(index_) * double(interval_ns_) / 1e9);
  for (int op = 0; op < 3; ++op) {
    const Bucket& b = ops_[op];
    std::fprintf(f_, ",%.3f,%.3f", double(b.ios) / secs, double(b.bytes) / secs / 1e6);
    if (b.ios)
      std::fprintf(f_, ",%.3f,%.3f", double(b.lat_sum) / double(b.ios) / 1e3, double(b.lat_max) / 1e3);
    else
      std::fputs(",,", f_);
  }
  std::fprintf(f_, ",%.3f,%.9g", double(ops_[3].ios) / secs, secs);
  // Percentiles come after the original columns so readers that index
  // columns by position keep working.
  for (int op = 0; op < 3; ++op)
    for (double p : {50.0, 99.0, 99.9}) {
      if (ops_[op].ios)
        std::fprintf(f_, ",%.3f", double(ops_[op].lat.percentile(p)) / 1e3);
      else
        std::fputc(',', f_);
    }
  std::fputc('\n', f_);
  for (Bucket& b : ops_)
    if (b.ios) b = Bucket{};  // an empty interval keeps its (empty) histogram: no 59 KB clear

  ++index_;
  check_written(f_, index_, "timeseries", path_);
}

void TimeSeries::add(const IoCompletion& c) {
  const uint64_t done = to_ns(c.completion);
  while (done / interval_ns_ > index_) flush_interval(interval_ns_);
  Bucket& b = ops_[size_t(c.request.op)];
  const uint64_t lat = to_ns(c.completion - c.arrival);
  ++b.ios;
  b.bytes += c.request.bytes;
  b.lat_sum += lat;
  b.lat.add(lat);
  if (lat > b.lat_max) b.lat_max = lat;
  any_ = true;
}

void TimeSeries::close(uint64_t end_ns) {
  if (!f_) return;
  // The last interval ends with the run (at least 1 ns, for a run that ends
  // exactly on an interval boundary).
  if (any_) flush_interval(std::max<uint64_t>(1, std::min(interval_ns_, end_ns - std::min(end_ns, index_ * interval_ns_))));
  const bool ok = text::close_written(f_);
  f_ = nullptr;
  if (!ok) throw std::runtime_error(path_ + ": write failed");
}

}  // namespace ssd
