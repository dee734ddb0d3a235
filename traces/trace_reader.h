#pragma once
// One interface for every block-trace format. A reader is a plain streaming
// producer (no SystemC): the host module pulls one record at a time, so a
// multi-GB trace replays in constant memory.
//
// Formats (each reader's header has the details and the sources):
//   blktrace  blktrace binary, per-CPU NAME.blktrace.N files or one merged file
//             (blktrace_binary.h); ns, either byte order, version 7
//   blkparse  blkparse's default text output (blkparse_text.h); ns
//   msr       MSR Cambridge / SNIA IOTTA CSV (msr_trace.h); 100 ns ticks
//   spc       SPC / UMass CSV (spc_trace.h); seconds, read exactly to ns
//   fio       fio iolog version 2 and 3 (fio_iolog.h); µs
//   disksim   DiskSim ASCII as MQSim replays it (disksim_trace.h); ns
//   alibaba   Alibaba Cloud 2020 block trace CSV (alibaba_trace.h); µs
//
// What every reader guarantees:
//  - records come in arrival order; time_ns never decreases and the first
//    record has time_ns 0. A format whose records must be time-ordered
//    (all of them; for blktrace within each per-CPU file) reports a record
//    earlier than its predecessor as bad input ("time going backwards").
//  - everything in the file is accounted for: a record, a stats().ignored
//    entry (valid but not a data arrival: other blktrace actions, notes,
//    headers, summaries, zero-length requests) or, with skip_bad, a
//    stats().skipped entry (malformed). Without skip_bad malformed input
//    throws TraceError naming the file, line or byte offset, and field.
//  - memory stays bounded whatever the input (one buffer per file, no
//    allocation sized from a field of the file).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace traces {

// PowerFail: the power is cut at the record's time (an ssdsim extension of
// fio's iolog: "TIME FILE powerfail"; no other format has one). It carries
// no data (bytes = 0).
enum class TraceOp { Read, Write, Discard, Flush, PowerFail };
const char* to_string(TraceOp op);

// One block request as recorded. Offsets and sizes are in bytes so the
// formats' sector sizes never leak into the model.
struct TraceRecord {
  uint64_t time_ns = 0;       // arrival, relative to the first record returned
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
  // blktrace and blkparse: which action is the arrival of a request, Q
  // (queued: what the application asked for) or D (issued to the driver:
  // after merging and splitting). Other formats have one event per request.
  enum class Arrival { Queue, Issue } arrival = Arrival::Queue;
  // Skip (and count) malformed records instead of failing.
  bool skip_bad = false;
  // Sector size for formats that count sectors and do not say (SPC, DiskSim,
  // blkparse). blkparse always prints 512-byte sectors, as the kernel counts
  // them; blktrace binary records are always 512-byte sectors.
  uint32_t sector_size = 512;
};

// Counts of everything read that did not become a record, by reason, so a
// replay accounts for every record in the file.
struct ReaderStats {
  uint64_t records = 0;                      // records returned by next()
  std::map<std::string, uint64_t> ignored;   // e.g. "blktrace action C": 1200 (not data arrivals)
  std::map<std::string, uint64_t> skipped;   // malformed, with --trace.skip-bad, e.g.
                                             // "bad field 'Size'", "time going backwards"
  uint64_t resync_bytes = 0;                 // binary formats: bytes passed over after a
                                             // malformed record to find the next one
};

class TraceReader {
 public:
  virtual ~TraceReader() = default;
  // Next record in arrival order; false at end of trace. Throws TraceError
  // (bad input, or a read error).
  virtual bool next(TraceRecord& rec) = 0;
  virtual const ReaderStats& stats() const = 0;
  virtual std::string format() const = 0;
};

// Formats by name: "blktrace", "fio", "blkparse", "msr", "alibaba", "spc",
// "disksim" (the order detection tries them in).
std::vector<std::string> trace_formats();

// Detect the format from the content of `path` (a file, a directory holding
// NAME.blktrace.N files, or a blktrace NAME prefix): a blktrace magic in
// either byte order, else the first line of the first 64 KiB that some
// format's line shape matches. Throws TraceError naming the file if none.
std::string detect_format(const std::string& path);

// Open a reader; `format` empty means detect. Throws TraceError (unknown
// format name, file missing, bad options).
std::unique_ptr<TraceReader> open_trace(const std::string& path, const std::string& format,
                                        const ReaderOptions& opts);

// Writers for the round-trip tests and for converting a synthetic workload
// into a trace another simulator can replay. write() throws TraceError for a
// record the format cannot hold (a Flush in MSR, an unaligned offset in a
// sector-based format, ...); times are truncated to the format's resolution.
// Call close() to finish the file (it reports write errors).
class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  virtual void write(const TraceRecord& rec) = 0;
  virtual void close() = 0;
};
// For "blktrace" the path is a NAME prefix (writes NAME.blktrace.0).
std::unique_ptr<TraceWriter> create_trace_writer(const std::string& path, const std::string& format);
// The file create_trace_writer(path, format) writes: NAME.blktrace.0 for
// "blktrace", else `path`. (What to check for writing before the work; a
// file made at the prefix itself would be an empty trace that a replay of
// NAME reads instead of NAME.blktrace.0.)
std::string trace_writer_file(const std::string& path, const std::string& format);

}  // namespace traces
