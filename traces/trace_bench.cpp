// Parse-speed benchmark of the trace readers. For each format: generate a
// synthetic request list, write it with the format's writer, then time
// reading it back (best of a few passes, file in the page cache) and print
// records/s. Run via scripts/bench-traces.
//
//   trace_bench [--records N] [--dir DIR] [--passes P] [--keep] [FORMAT...]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "traces/trace_reader.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Formats whose writers take Discard and Flush; the others get reads and writes only.
bool all_ops(const std::string& format) {
  return format == "blktrace" || format == "blkparse" || format == "fio";
}

traces::TraceRecord synthetic(std::mt19937_64& rng, uint64_t& t, bool any_op) {
  traces::TraceRecord r;
  t += 1 + rng() % 20000;  // ~100k IOPS
  r.time_ns = t;
  unsigned pick = rng() % 100;
  r.op = pick < 60 ? traces::TraceOp::Read : traces::TraceOp::Write;
  if (any_op && pick >= 98) r.op = pick == 98 ? traces::TraceOp::Discard : traces::TraceOp::Flush;
  r.device = 0;
  if (r.op == traces::TraceOp::Flush) return r;
  r.offset = (rng() % (uint64_t{1} << 28)) * 4096;  // within 1 TiB
  r.bytes = 4096u << (rng() % 6);                    // 4 KiB .. 128 KiB
  return r;
}

// The path to pass to open_trace (blktrace: the NAME prefix) and the files it made.
std::vector<std::string> files_of(const std::string& path, const std::string& format) {
  return {traces::trace_writer_file(path, format)};
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t n = 5000000;
  int passes = 2;
  bool keep = false;
  std::string dir = "/tmp/ssdsim-trace-bench";
  std::vector<std::string> formats;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--records" && i + 1 < argc) {
      n = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else if (a == "--passes" && i + 1 < argc) {
      passes = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--keep") {
      keep = true;
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: %s [--records N] [--dir DIR] [--passes P] [--keep] [FORMAT...]\n", argv[0]);
      return 0;
    } else {
      formats.push_back(a);
    }
  }
  if (formats.empty()) formats = traces::trace_formats();
  std::filesystem::create_directories(dir);

  std::printf("%-9s %10s %9s %8s %8s %14s %9s\n", "format", "records", "file MB", "write s", "parse s",
              "records/s", "MB/s");
  for (const std::string& format : formats) {
    const std::string path = dir + "/bench." + format;
    try {
      std::mt19937_64 rng(42);
      uint64_t t = 0;
      auto t0 = Clock::now();
      {
        auto w = traces::create_trace_writer(path, format);
        for (uint64_t i = 0; i < n; ++i) w->write(synthetic(rng, t, all_ops(format)));
        w->close();
      }
      const double write_s = seconds_since(t0);
      uint64_t size = 0;
      for (const auto& f : files_of(path, format)) size += std::filesystem::file_size(f);

      double best = 1e300;
      uint64_t got = 0, checksum = 0;
      for (int p = 0; p < passes; ++p) {
        auto t1 = Clock::now();
        auto r = traces::open_trace(path, format, {});
        traces::TraceRecord rec;
        got = checksum = 0;
        while (r->next(rec)) {
          ++got;
          checksum += rec.offset ^ rec.bytes ^ rec.time_ns;  // keep the loop honest
        }
        best = std::min(best, seconds_since(t1));
      }
      if (got != n) {
        std::fprintf(stderr, "%s: read %llu records, wrote %llu\n", format.c_str(), (unsigned long long)got,
                     (unsigned long long)n);
        return 1;
      }
      std::printf("%-9s %10llu %9.1f %8.2f %8.3f %14.0f %9.0f   (checksum %llx)\n", format.c_str(),
                  (unsigned long long)got, size / 1e6, write_s, best, got / best, size / 1e6 / best,
                  (unsigned long long)(checksum & 0xffff));
      std::fflush(stdout);
    } catch (const traces::TraceError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
    if (!keep)
      for (const auto& f : files_of(path, format)) std::filesystem::remove(f);
  }
  return 0;
}
