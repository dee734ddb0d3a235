// Parse-speed benchmark of the trace readers. For each format: generate a
// synthetic request list, write it with the format's writer, then time
// reading it back (best of a few passes, file in the page cache) and print
// records/s. Run via scripts/bench-traces.
//
//   trace_bench [--records N] [--dir DIR] [--passes P] [--keep] [FORMAT...]

#include <algorithm>
#include <cerrno>
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

// Bad arguments: one line naming the argument, exit 2 (nothing written).
[[noreturn]] void bad_argument(const std::string& what) {
  std::fprintf(stderr, "trace_bench: %s (usage: trace_bench [--records N] [--dir DIR] [--passes P] [--keep] "
                       "[FORMAT...])\n", what.c_str());
  std::exit(2);
}

// The value of `option` as a whole number in [1, max].
uint64_t whole(const std::string& option, const char* text, uint64_t max) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (!*text || *end || errno || v == 0 || v > max || text[0] == '-')
    bad_argument(option + " " + text + ": must be a whole number from 1 to " + std::to_string(max));
  return v;
}

int run(int argc, char** argv) {
  uint64_t n = 5000000;
  int passes = 2;
  bool keep = false;
  std::string dir = "/tmp/ssdsim-trace-bench";
  std::vector<std::string> formats;
  const std::vector<std::string> known = traces::trace_formats();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool takes_value = a == "--records" || a == "--dir" || a == "--passes";
    if (takes_value && i + 1 == argc) bad_argument(a + " needs a value");
    if (a == "--records") {
      n = whole(a, argv[++i], uint64_t{1} << 40);
    } else if (a == "--dir") {
      dir = argv[++i];
    } else if (a == "--passes") {
      passes = int(whole(a, argv[++i], 1000));
    } else if (a == "--keep") {
      keep = true;
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: %s [--records N] [--dir DIR] [--passes P] [--keep] [FORMAT...]\n", argv[0]);
      return 0;
    } else if (std::find(known.begin(), known.end(), a) != known.end()) {
      formats.push_back(a);
    } else {
      std::string list;
      for (const std::string& f : known) list += (list.empty() ? "" : ", ") + f;
      bad_argument("'" + a + "' is neither an option nor a trace format (" + list + ")");
    }
  }
  if (formats.empty()) formats = known;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) bad_argument("--dir " + dir + ": " + ec.message());

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
      if (got != n) {  // (the readers' own round trip failed: an internal error)
        std::fprintf(stderr, "trace_bench: %s: read %llu records, wrote %llu\n", format.c_str(),
                     (unsigned long long)got, (unsigned long long)n);
        return 3;
      }
      std::printf("%-9s %10llu %9.1f %8.2f %8.3f %14.0f %9.0f   (checksum %llx)\n", format.c_str(),
                  (unsigned long long)got, size / 1e6, write_s, best, got / best, size / 1e6 / best,
                  (unsigned long long)(checksum & 0xffff));
      std::fflush(stdout);
    } catch (const traces::TraceError& e) {  // (a file it wrote itself, or could not write)
      std::fprintf(stderr, "trace_bench: %s\n", e.what());
      return 3;
    }
    if (!keep)
      for (const auto& f : files_of(path, format)) std::filesystem::remove(f);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // e.g. a full disk under --dir
    std::fprintf(stderr, "trace_bench: %s\n", e.what());
    return 3;
  }
}
