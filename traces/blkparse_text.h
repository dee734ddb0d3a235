#pragma once
// blkparse's default text output (blkparse -i NAME), one event per line:
//
//   7,0    0        1     0.000000000 11115  Q   R 3952 + 128 [fio]
//   dev  cpu  sequence   sec.nanosec    pid act rwbs sector + sectors [process]
//
// The arrival action (Q; D with ReaderOptions::Arrival::Issue) becomes a
// record. Every other action, message lines ("m"), PC (SCSI passthrough)
// requests and the summary blkparse appends ("CPU0 (7,0):" and "Total"
// blocks, "Throughput", "Events", "Skips", "Input file ... added") are
// counted in stats().ignored; of an ignored event only the device and
// action columns are checked.
//
// RWBS (blkparse's fill_rwbs): an optional F (preflush), then exactly one of
// D discard / W write / R read / N no data, then any of F (FUA), A
// (readahead), S (sync), M (metadata). D -> Discard, W -> Write, R -> Read;
// an event without sectors but with the preflush F -> Flush (a write with
// data and F stays a Write); any other event without sectors is ignored.
//
// device = major << 20 | minor, the kernel dev_t layout that blktrace binary
// records carry, so both readers agree. Times are blkparse's (seconds since
// the first event) and must not go backwards. Sectors are
// ReaderOptions::sector_size bytes; blkparse always prints 512-byte sectors,
// so keep the default for this format.

#include <string_view>

#include "traces/reader_support.h"
#include "traces/writer_support.h"

namespace traces::detail {

class BlkparseReader final : public TextTraceReader {
 public:
  BlkparseReader(const std::string& path, const ReaderOptions& opts);
  std::string format() const override { return "blkparse"; }

 private:
  Line parse_line(std::string_view line, TraceRecord& rec, uint64_t& time, std::string_view& reason) override;
  Line parse_other(std::string_view line, std::string_view& reason);

  std::string_view arrival_;    // "Q" or "D"
  bool in_summary_ = false;     // past the first "CPUn (...):" / "Total (...):" line
};

// Writes a Q and a C event per record (the C is there for readers to skip),
// CPU 0, pid 0, process "ssdsim", then a short summary block at close().
// RWBS: Read "R", Write "W", Discard "D", Flush "FWS" without sectors.
class BlkparseWriter final : public TextTraceWriter {
 public:
  explicit BlkparseWriter(const std::string& path) : TextTraceWriter(path) {}
  void write(const TraceRecord& rec) override;
  void close() override;

 private:
  void event(const TraceRecord& rec, std::string_view action, std::string_view rwbs, std::string_view tail);
  uint64_t sequence_ = 0, reads_ = 0, writes_ = 0;
  bool closed_ = false;
};

bool looks_like_blkparse(std::string_view line);

}  // namespace traces::detail
