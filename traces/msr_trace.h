#pragma once
// MSR Cambridge block traces (SNIA IOTTA trace 388) and anything else in
// their CSV layout:
//
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
//   128166372003061629,hm,1,Read,3224019456,16384,1331
//
// Timestamp is a Windows FILETIME (100 ns ticks), so times have 100 ns
// resolution. Type is Read or Write (any case); Offset and Size are bytes;
// device = DiskNumber. ResponseTime (100 ns ticks) is checked to be a number
// but not used: a replay measures its own latency. A header line (first
// field "Timestamp") on line 1 is ignored. Records must be in time order.

#include <string_view>

#include "traces/reader_support.h"
#include "traces/writer_support.h"

namespace traces::detail {

class MsrReader final : public TextTraceReader {
 public:
  MsrReader(const std::string& path, const ReaderOptions& opts) : TextTraceReader(path, opts, 100) {}
  std::string format() const override { return "msr"; }

 private:
  Line parse_line(std::string_view line, TraceRecord& rec, uint64_t& time, std::string_view& reason) override;
};

// Writes Read/Write records only; Timestamp = an arbitrary 2007 FILETIME base
// + time_ns / 100 (truncated), Hostname "ssdsim", ResponseTime 0.
class MsrWriter final : public TextTraceWriter {
 public:
  explicit MsrWriter(const std::string& path) : TextTraceWriter(path) {}
  void write(const TraceRecord& rec) override;
};

bool looks_like_msr(std::string_view line);

}  // namespace traces::detail
