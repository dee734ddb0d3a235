#include "traces/msr_trace.h"

namespace traces::detail {

namespace {
constexpr size_t kMsrFields = 7;
// 2007-02-22, around when the MSR Cambridge traces were taken; any base works
// because readers make times relative to the first record.
constexpr uint64_t kFiletimeBase = 128166372000000000ULL;

bool is_header(std::string_view first_field) { return iequals(first_field, "Timestamp"); }
}  // namespace

TextTraceReader::Line MsrReader::parse_line(std::string_view line, TraceRecord& rec, uint64_t& time,
                                            std::string_view& reason) {
  std::string_view f[kMsrFields];
  size_t n = split(line, ',', f, kMsrFields);
  if (line_number() == 1 && is_header(f[0])) {
    reason = "msr header";
    return Line::Ignored;
  }
  if (n != kMsrFields)
    throw BadRecord("unparsable line", "expected 7 comma-separated fields (Timestamp,Hostname,DiskNumber,"
                                       "Type,Offset,Size,ResponseTime), found " + std::to_string(n));
  time = parse_u64(f[0], "Timestamp");
  rec.device = parse_u32(f[2], "DiskNumber");
  if (iequals(f[3], "Read")) {
    rec.op = TraceOp::Read;
  } else if (iequals(f[3], "Write")) {
    rec.op = TraceOp::Write;
  } else {
    bad_field("Type", "expected Read or Write, got", f[3]);
  }
  rec.offset = parse_u64(f[4], "Offset");
  rec.bytes = parse_u64(f[5], "Size");
  parse_u64(f[6], "ResponseTime");
  return Line::Record;
}

void MsrWriter::write(const TraceRecord& rec) {
  require_read_write(rec, "msr");
  line_.num(kFiletimeBase + rec.time_ns / 100).str(",ssdsim,").num(rec.device).ch(',');
  line_.str(rec.op == TraceOp::Read ? "Read" : "Write").ch(',').num(rec.offset).ch(',');
  line_.num(rec.bytes).str(",0\n").flush_to(out_);
  ++index_;
}

bool looks_like_msr(std::string_view line) {
  std::string_view f[kMsrFields];
  if (split(line, ',', f, kMsrFields) != kMsrFields) return false;
  if (is_header(f[0])) return true;
  return is_digits(f[0]) && is_digits(f[2]) && (iequals(f[3], "Read") || iequals(f[3], "Write")) &&
         is_digits(f[4]) && is_digits(f[5]);
}

}  // namespace traces::detail
