#include "traces/spc_trace.h"

namespace traces::detail {

namespace {
constexpr size_t kSpcFields = 5;
}  // namespace

TextTraceReader::Line SpcReader::parse_line(std::string_view line, TraceRecord& rec, uint64_t& time,
                                            std::string_view& /*reason*/) {
  std::string_view f[kSpcFields];
  size_t n = split(line, ',', f, kSpcFields);
  if (n < kSpcFields)
    throw BadRecord("unparsable line",
                    "expected at least 5 comma-separated fields (ASU,LBA,size,opcode,timestamp), found " +
                        std::to_string(n));
  rec.device = parse_u32(f[0], "ASU");
  rec.offset = mul_checked(parse_u64(f[1], "LBA"), options().sector_size, "LBA", f[1]);
  rec.bytes = parse_u64(f[2], "size");
  if (!is_rw_letter(f[3])) bad_field("opcode", "expected r or w, got", f[3]);
  rec.op = is_read_letter(f[3]) ? TraceOp::Read : TraceOp::Write;
  time = parse_decimal(f[4], 9, "timestamp");
  return Line::Record;
}

void SpcWriter::write(const TraceRecord& rec) {
  require_read_write(rec, "spc");
  require_aligned(rec, 512, "spc");
  line_.num(rec.device).ch(',').num(rec.offset / 512).ch(',').num(rec.bytes).ch(',');
  line_.ch(rec.op == TraceOp::Read ? 'R' : 'W').ch(',').frac(rec.time_ns / 1000, 6).ch('\n').flush_to(out_);
  ++index_;
}

bool looks_like_spc(std::string_view line) {
  std::string_view f[kSpcFields];
  return split(line, ',', f, kSpcFields) >= kSpcFields && is_digits(f[0]) && is_digits(f[1]) &&
         is_digits(f[2]) && is_rw_letter(f[3]) && is_decimal(f[4]);
}

}  // namespace traces::detail
