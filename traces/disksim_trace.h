#pragma once
// DiskSim ASCII traces as MQSim replays them (IO_Flow_Trace_Based):
//
//   arrival_time device start_sector size_sectors type
//   938513000 4 264719034 16 0
//
// Space separated. arrival_time is in ns, MQSim's Time_Unit NANOSECOND that
// its sample workloads use (DiskSim itself wrote ms: convert such traces
// first); a fractional part is accepted and truncated. Sectors are
// ReaderOptions::sector_size bytes (512 by default). type is DiskSim's flags
// word: bit 0 set = read, clear = write (MQSim writes 1 and 0). Records must
// be in time order.

#include <string_view>

#include "traces/reader_support.h"
#include "traces/writer_support.h"

namespace traces::detail {

class DiskSimReader final : public TextTraceReader {
 public:
  DiskSimReader(const std::string& path, const ReaderOptions& opts) : TextTraceReader(path, opts, 1) {}
  std::string format() const override { return "disksim"; }

 private:
  Line parse_line(std::string_view line, TraceRecord& rec, uint64_t& time, std::string_view& reason) override;
};

// Writes Read/Write records, ns times, 512-byte sectors, type 1/0.
class DiskSimWriter final : public TextTraceWriter {
 public:
  explicit DiskSimWriter(const std::string& path) : TextTraceWriter(path) {}
  void write(const TraceRecord& rec) override;
};

bool looks_like_disksim(std::string_view line);

}  // namespace traces::detail
