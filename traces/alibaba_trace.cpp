#include "traces/alibaba_trace.h"

namespace traces::detail {

namespace {
constexpr size_t kAlibabaFields = 5;
}  // namespace

TextTraceReader::Line AlibabaReader::parse_line(std::string_view line, TraceRecord& rec, uint64_t& time,
                                                std::string_view& /*reason*/) {
  std::string_view f[kAlibabaFields];
  size_t n = split(line, ',', f, kAlibabaFields);
  if (n != kAlibabaFields)
    throw BadRecord("unparsable line",
                    "expected 5 comma-separated fields (device_id,opcode,offset,length,timestamp), found " +
                        std::to_string(n));
  rec.device = parse_u32(f[0], "device_id");
  if (!is_rw_letter(f[1])) bad_field("opcode", "expected R or W, got", f[1]);
  rec.op = is_read_letter(f[1]) ? TraceOp::Read : TraceOp::Write;
  rec.offset = parse_u64(f[2], "offset");
  rec.bytes = parse_u64(f[3], "length");
  time = parse_u64(f[4], "timestamp");
  return Line::Record;
}

void AlibabaWriter::write(const TraceRecord& rec) {
  require_read_write(rec, "alibaba");
  line_.num(rec.device).ch(',').ch(rec.op == TraceOp::Read ? 'R' : 'W').ch(',').num(rec.offset).ch(',');
  line_.num(rec.bytes).ch(',').num(rec.time_ns / 1000).ch('\n').flush_to(out_);
  ++index_;
}

bool looks_like_alibaba(std::string_view line) {
  std::string_view f[kAlibabaFields];
  return split(line, ',', f, kAlibabaFields) == kAlibabaFields && is_digits(f[0]) && is_rw_letter(f[1]) &&
         is_digits(f[2]) && is_digits(f[3]) && is_digits(f[4]);
}

}  // namespace traces::detail
