#pragma once
// Alibaba Cloud block traces 2020 (io_traces.csv of the alibaba/block-traces
// release):
//
//   device_id,opcode,offset,length,timestamp
//   0,R,2023424,65536,1600000000000000
//
// opcode R/W (any case), offset and length in bytes, timestamp in µs;
// device = device_id. Records must be in time order.

#include <string_view>

#include "traces/reader_support.h"
#include "traces/writer_support.h"

namespace traces::detail {

class AlibabaReader final : public TextTraceReader {
 public:
  AlibabaReader(const std::string& path, const ReaderOptions& opts) : TextTraceReader(path, opts, 1000) {}
  std::string format() const override { return "alibaba"; }

 private:
  Line parse_line(std::string_view line, TraceRecord& rec, uint64_t& time, std::string_view& reason) override;
};

// Writes Read/Write records; timestamp = time_ns / 1000 (truncated).
class AlibabaWriter final : public TextTraceWriter {
 public:
  explicit AlibabaWriter(const std::string& path) : TextTraceWriter(path) {}
  void write(const TraceRecord& rec) override;
};

bool looks_like_alibaba(std::string_view line);

}  // namespace traces::detail
