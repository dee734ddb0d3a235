#include "traces/disksim_trace.h"

namespace traces::detail {

namespace {
constexpr size_t kDisksimFields = 5;
}

TextTraceReader::Line DiskSimReader::parse_line(std::string_view line, TraceRecord& rec, uint64_t& time,
                                                std::string_view& /*reason*/) {
  std::string_view f[kDisksimFields];
  size_t n = split_ws(line, f, kDisksimFields);
  if (n != kDisksimFields)
    throw BadRecord("unparsable line",
                    "expected 5 space-separated fields (arrival_time device start_sector size_sectors "
                    "type), found " + std::to_string(n));
  time = parse_decimal(f[0], 0, "arrival_time");
  rec.device = parse_u32(f[1], "device");
  const uint64_t sector = options().sector_size;
  rec.offset = mul_checked(parse_u64(f[2], "start_sector"), sector, "start_sector", f[2]);
  rec.bytes = mul_checked(parse_u64(f[3], "size_sectors"), sector, "size_sectors", f[3]);
  rec.op = (parse_u32(f[4], "type") & 1) ? TraceOp::Read : TraceOp::Write;
  return Line::Record;
}

void DiskSimWriter::write(const TraceRecord& rec) {
  require_read_write(rec, "disksim");
  require_aligned(rec, 512, "disksim");
  line_.num(rec.time_ns).ch(' ').num(rec.device).ch(' ').num(rec.offset / 512).ch(' ');
  line_.num(rec.bytes / 512).ch(' ').ch(rec.op == TraceOp::Read ? '1' : '0').ch('\n').flush_to(out_);
  ++index_;
}

bool looks_like_disksim(std::string_view line) {
  std::string_view f[kDisksimFields];
  return split_ws(line, f, kDisksimFields) == kDisksimFields && is_decimal(f[0]) && is_digits(f[1]) &&
         is_digits(f[2]) && is_digits(f[3]) && is_digits(f[4]);
}

}  // namespace traces::detail
