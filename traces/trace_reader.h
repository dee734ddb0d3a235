#pragma once
// One interface for every block-trace format. A reader is a plain streaming
// producer (no SystemC): the host module pulls one record at a time, so a
// multi-GB trace replays in constant memory.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace traces {

enum class TraceOp { Read, Write, Discard, Flush };
const char* to_string(TraceOp op);

// One block request as recorded. Offsets and sizes are in bytes so the
// formats' sector sizes never leak into the model.
struct TraceRecord {
  uint64_t time_ns = 0;       // arrival, relative to the trace's first record
  TraceOp op = TraceOp::Read;
  uint64_t offset = 0;        // bytes from the start of the device
  uint64_t bytes = 0;         // 0 only for Flush
  uint32_t device = 0;        // dev_t (major<<20|minor) or the format's disk number
  uint64_t position = 0;      // line number (text) or byte offset (binary) in `source`
  std::string_view source;    // file the record came from (valid while the reader lives)
};

// Bad input: the file, where in it (line or byte offset) and what is wrong.
// what() is one line: "FILE: WHERE: WHAT", e.g.
//   loop0_q.spc: line 12: field 'size': negative value "-8"
//   sda.blktrace.1: byte offset 4096: bad magic 0x12345678
// `where` may be empty (file-level problems: cannot open, unknown format);
// then what() is "FILE: WHAT".
class TraceError : public std::runtime_error {
 public:
  TraceError(const std::string& file, const std::string& where, const std::string& what);
  const std::string& file() const { return file_; }
  const std::string& where() const { return where_; }
  const std::string& detail() const { return detail_; }

 private:
  std::string file_, where_, detail_;
};

struct ReaderOptions {
  // blktrace: which action is the arrival of a request.
  enum class Arrival { Queue, Issue } arrival = Arrival::Queue;
  // Skip (and count) malformed records instead of failing.
  bool skip_bad = false;
  // Sector size for formats that count sectors and do not say (SPC, DiskSim, blkparse).
  uint32_t sector_size = 512;
};

// Counts of everything read that did not become a record, by reason, so a
// replay accounts for every record in the file.
struct ReaderStats {
  uint64_t records = 0;                      // records returned by next()
  std::map<std::string, uint64_t> ignored;   // e.g. "blktrace action C": 1200 (not data arrivals)
  std::map<std::string, uint64_t> skipped;   // malformed, with --trace.skip-bad
};

class TraceReader {
 public:
  virtual ~TraceReader() = default;
  // Next record in arrival order; false at end of trace. Throws TraceError.
  virtual bool next(TraceRecord& rec) = 0;
  virtual const ReaderStats& stats() const = 0;
  virtual std::string format() const = 0;
};

// Formats by name: "blktrace", "blkparse", "msr", "spc", "fio", "disksim".
std::vector<std::string> trace_formats();

// Detect the format from the content of `path` (a file, a directory holding
// NAME.blktrace.N files, or a blktrace NAME prefix). Throws TraceError.
std::string detect_format(const std::string& path);

// Open a reader; `format` empty means detect.
std::unique_ptr<TraceReader> open_trace(const std::string& path, const std::string& format,
                                        const ReaderOptions& opts);

// Writers for the round-trip tests and for converting a synthetic workload
// into a trace another simulator can replay.
class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  virtual void write(const TraceRecord& rec) = 0;
  virtual void close() = 0;
};
// For "blktrace" the path is a NAME prefix (writes NAME.blktrace.0).
std::unique_ptr<TraceWriter> create_trace_writer(const std::string& path, const std::string& format);

}  // namespace traces
