#pragma once
// SPC format of the UMass trace repository (Financial, WebSearch) and the
// Storage Performance Council traces:
//
//   ASU,LBA,size,opcode,timestamp[,further fields ignored]
//   0,20941264,8192,W,0.551706
//
// LBA counts sectors of ReaderOptions::sector_size (512 by default); size is
// bytes; opcode r/R/w/W; timestamp is seconds as a decimal, read exactly
// (fixed point, no floating point) to ns; device = ASU. Records must be in
// time order.

#include <string_view>

#include "traces/reader_support.h"
#include "traces/writer_support.h"

namespace traces::detail {

class SpcReader final : public TextTraceReader {
 public:
  SpcReader(const std::string& path, const ReaderOptions& opts) : TextTraceReader(path, opts, 1) {}
  std::string format() const override { return "spc"; }

 private:
  Line parse_line(std::string_view line, TraceRecord& rec, uint64_t& time, std::string_view& reason) override;
};

// Writes Read/Write records with 512-byte LBAs and the timestamp in seconds
// with 6 decimals (µs, truncated), as the UMass files have it.
class SpcWriter final : public TextTraceWriter {
 public:
  explicit SpcWriter(const std::string& path) : TextTraceWriter(path) {}
  void write(const TraceRecord& rec) override;
};

bool looks_like_spc(std::string_view line);

}  // namespace traces::detail
