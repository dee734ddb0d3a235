#pragma once
// Shared body of the libFuzzer targets: the input bytes become a trace file
// (the readers take paths), the reader drains it with and without skip_bad
// and with both arrival actions, and only TraceError may come out. The
// invariants every reader promises are checked on every record; a violation
// aborts, which libFuzzer reports as a crash.

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "traces/trace_reader.h"

namespace trace_fuzz {

// A per-process scratch directory (in /dev/shm when there is one: it is
// rewritten on every input).
inline const std::string& scratch_dir() {
  static const std::string dir = [] {
    std::string base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    std::string d = base + "/ssdsim-fuzz-" + std::to_string(getpid());
    if (mkdir(d.c_str(), 0700) != 0 && errno != EEXIST) std::abort();
    return d;
  }();
  return dir;
}

inline void write_bytes(const std::string& path, const uint8_t* data, size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
}

inline void check(bool ok) {
  if (!ok) std::abort();
}

// Reads `path` as `format` with every option combination.
inline void drain(const std::string& path, const char* format) {
  for (int variant = 0; variant < 4; ++variant) {
    traces::ReaderOptions opts;
    opts.skip_bad = variant & 1;
    opts.arrival = variant & 2 ? traces::ReaderOptions::Arrival::Issue : traces::ReaderOptions::Arrival::Queue;
    try {
      auto reader = traces::open_trace(path, format, opts);
      traces::TraceRecord rec;
      uint64_t n = 0, last = 0;
      while (reader->next(rec)) {
        check(rec.bytes > 0 || rec.op == traces::TraceOp::Flush || rec.op == traces::TraceOp::PowerFail);
        check(rec.op != traces::TraceOp::Flush || rec.bytes == 0);
        check(n > 0 || rec.time_ns == 0);  // times are relative to the first record
        check(rec.time_ns >= last);        // and never go backwards
        check(!rec.source.empty());
        last = rec.time_ns;
        ++n;
      }
      check(reader->stats().records == n);
    } catch (const traces::TraceError& e) {
      check(e.what()[0] != '\0');
    }
  }
}

inline int fuzz_text_reader(const char* format, const uint8_t* data, size_t size) {
  const std::string path = scratch_dir() + "/input." + format;
  write_bytes(path, data, size);
  drain(path, format);
  return 0;
}

}  // namespace trace_fuzz
