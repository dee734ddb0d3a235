#pragma once
// fio I/O logs (write_iolog / read_iolog), versions 2 and 3. Semantics from
// fio's HOWTO ("Trace file format") and iolog.c:
//
//   fio version 2 iolog            fio version 3 iolog
//   /dev/sdb add                   17 /dev/sdb add
//   /dev/sdb open                  543 /dev/sdb open
//   /dev/sdb read 4096 512         549 /dev/sdb read 4096 512
//   /dev/sdb wait 2000 0           761 /dev/sdb write 8192 4096
//   /dev/sdb write 8192 4096       ...
//
// Lines are "[timestamp] filename action [offset length]"; offset and length
// are bytes. Actions: read, write, trim (-> Discard), sync and datasync (->
// Flush, offset/length ignored); add/open/close manage files and are ignored
// (counted). ssdsim's own extension: "FILE powerfail" (no offset or
// length) cuts the power at that time (TraceOp::PowerFail; fio itself does
// not know the action). Each distinct filename is one device, numbered 0, 1, ... by
// first appearance.
//
// Time. v3: the timestamp is µs since the start of the run (fio writes
// utime_since_now(); the HOWTO leaves the unit out) and must not go
// backwards. v2 has no timestamps: records issue back to back, and
// "wait N" advances the clock by N µs (the HOWTO: "wait for offset
// microseconds ... relative to the previous wait"; fio's iolog.c today
// compares the value with the ms elapsed since the start instead, so logs
// that rely on waits replay differently across fio versions). "wait" in a
// v3 log is ignored and counted, as fio does.

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "traces/reader_support.h"
#include "traces/writer_support.h"

namespace traces::detail {

class FioReader final : public TextTraceReader {
 public:
  FioReader(const std::string& path, const ReaderOptions& opts) : TextTraceReader(path, opts, 1000) {}
  std::string format() const override { return "fio"; }

 private:
  Line parse_line(std::string_view line, TraceRecord& rec, uint64_t& time, std::string_view& reason) override;
  Line parse_header(std::string_view line, std::string_view& reason);
  uint32_t device_of(std::string_view file);

  int version_ = 0;        // 0 until the header line is read
  uint64_t clock_us_ = 0;  // v2: sum of the waits so far
  std::unordered_map<std::string, uint32_t> devices_;
  std::string last_file_;  // one-entry cache: most logs name a single file
  uint32_t last_device_ = 0;
};

// Writes a version 3 log: device N is file "/dev/traceN", added and opened
// at its first record and closed at close(); time in µs (truncated).
// Flush -> "sync 0 0", Discard -> "trim".
class FioWriter final : public TextTraceWriter {
 public:
  explicit FioWriter(const std::string& path);
  void write(const TraceRecord& rec) override;
  void close() override;

 private:
  std::unordered_set<uint32_t> opened_;
  std::vector<uint32_t> order_;
  uint64_t last_us_ = 0;
};

bool looks_like_fio(std::string_view line);

}  // namespace traces::detail
