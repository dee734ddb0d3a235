#include "traces/blkparse_text.h"

namespace traces::detail {

namespace {
constexpr size_t kMaxFields = 10;  // up to "sector + sectors"; the process name may add more

// blkparse's action column (process_default), with the stats key for each.
struct ActionName {
  std::string_view action, ignored;
};
constexpr ActionName kActions[] = {
    {"Q", "blkparse action Q"},   {"M", "blkparse action M"}, {"F", "blkparse action F"},
    {"G", "blkparse action G"},   {"S", "blkparse action S"}, {"R", "blkparse action R"},
    {"D", "blkparse action D"},   {"C", "blkparse action C"}, {"P", "blkparse action P"},
    {"U", "blkparse action U"},   {"UT", "blkparse action UT"}, {"I", "blkparse action I"},
    {"X", "blkparse action X"},   {"B", "blkparse action B"}, {"A", "blkparse action A"},
    {"m", "blkparse message"},
};

const ActionName* find_action(std::string_view a) {
  for (const auto& n : kActions)
    if (n.action == a) return &n;
  return nullptr;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// "MAJ,MIN" -> the kernel's dev_t (major << 20 | minor).
bool is_device(std::string_view s) {
  size_t comma = s.find(',');
  return comma != std::string_view::npos && is_digits(s.substr(0, comma)) && is_digits(s.substr(comma + 1));
}

uint32_t parse_device(std::string_view s) {
  size_t comma = s.find(',');
  uint32_t major = parse_u32(s.substr(0, comma), "device major");
  uint32_t minor = parse_u32(s.substr(comma + 1), "device minor");
  if (major >= (1u << 12)) bad_field("device major", "out of range", s);
  if (minor >= (1u << 20)) bad_field("device minor", "out of range", s);
  return major << 20 | minor;
}

struct Rwbs {
  char kind = 'N';      // D, W, R or N
  bool preflush = false;
};

Rwbs parse_rwbs(std::string_view s) {
  Rwbs r;
  size_t i = 0;
  if (i < s.size() && s[i] == 'F') {
    r.preflush = true;
    ++i;
  }
  if (i >= s.size() || (s[i] != 'D' && s[i] != 'W' && s[i] != 'R' && s[i] != 'N'))
    bad_field("rwbs", "expected [F]D|W|R|N[F][A][S][M], got", s);
  r.kind = s[i++];
  for (; i < s.size(); ++i)
    if (s[i] != 'F' && s[i] != 'A' && s[i] != 'S' && s[i] != 'M')
      bad_field("rwbs", "expected [F]D|W|R|N[F][A][S][M], got", s);
  return r;
}
}  // namespace

BlkparseReader::BlkparseReader(const std::string& path, const ReaderOptions& opts)
    : TextTraceReader(path, opts, 1),
      arrival_(opts.arrival == ReaderOptions::Arrival::Issue ? "D" : "Q") {}

// Lines that are not events: the summary block and blkparse's notices.
TextTraceReader::Line BlkparseReader::parse_other(std::string_view line, std::string_view& reason) {
  std::string_view t = trim(line);
  bool summary_head = (starts_with(t, "CPU") && t.size() > 3 && t[3] >= '0' && t[3] <= '9') ||
                      starts_with(t, "Total (");
  if (summary_head) in_summary_ = true;
  if (in_summary_ || starts_with(t, "Throughput (") || starts_with(t, "Events (") ||
      starts_with(t, "Skips:") || starts_with(t, "Input file ")) {
    reason = "blkparse summary";
    return Line::Ignored;
  }
  throw BadRecord("unparsable line", "not a blkparse event line: \"" + printable(t) + "\"");
}

TextTraceReader::Line BlkparseReader::parse_line(std::string_view line, TraceRecord& rec, uint64_t& time,
                                                 std::string_view& reason) {
  std::string_view f[kMaxFields];
  size_t n = split_ws(line, f, kMaxFields);
  if (!is_device(f[0])) return parse_other(line, reason);
  if (n < 7)
    throw BadRecord("unparsable line", "expected 'dev cpu sequence time pid action rwbs ...', found " +
                                           std::to_string(n) + " fields");
  // Most lines are events other than the arrival: recognise the action and
  // move on without parsing the fields nobody will use.
  const ActionName* action = find_action(f[5]);
  if (!action) bad_field("action", "unknown action", f[5]);
  if (f[5] != arrival_) {
    reason = action->ignored;
    return Line::Ignored;
  }
  rec.device = parse_device(f[0]);
  parse_u32(f[1], "cpu");
  parse_u64(f[2], "sequence");
  time = parse_decimal(f[3], 9, "time");
  parse_u32(f[4], "pid");
  Rwbs rwbs = parse_rwbs(f[6]);

  uint64_t sector = 0, sectors = 0;
  if (n >= 10 && f[8] == "+") {
    sector = parse_u64(f[7], "sector");
    sectors = parse_u64(f[9], "sectors");
  } else if (n >= 8 && (f[7][0] == '[' || f[7][0] == '(')) {
    // "[process]" or "(elapsed) [process]": an event without sectors.
  } else if (n >= 8 && is_digits(f[7])) {
    // PC requests print "bytes (cdb) [process]": no block address to replay.
    reason = "blkparse PC request";
    return Line::Ignored;
  } else {
    throw BadRecord("unparsable line", "expected 'sector + sectors [process]' or '[process]' after the RWBS");
  }

  const uint64_t sector_size = options().sector_size;
  rec.offset = mul_checked(sector, sector_size, "sector", f[7]);
  rec.bytes = mul_checked(sectors, sector_size, "sectors", f[9]);
  if (rec.bytes == 0) {
    if (!rwbs.preflush) {
      reason = "zero-length request";
      return Line::Ignored;
    }
    rec.op = TraceOp::Flush;
    rec.offset = 0;
    return Line::Record;
  }
  switch (rwbs.kind) {
    case 'D': rec.op = TraceOp::Discard; break;
    case 'W': rec.op = TraceOp::Write; break;
    case 'R': rec.op = TraceOp::Read; break;
    default: bad_field("rwbs", "N (no data) with sectors", f[6]);
  }
  return Line::Record;
}

void BlkparseWriter::event(const TraceRecord& rec, std::string_view action, std::string_view rwbs,
                           std::string_view tail) {
  // blkparse's header: "%3d,%-3d %2d %8d %5d.%09lu %5u %2s %3s "
  line_.right(std::to_string(rec.device >> 20), 3).ch(',').left(std::to_string(rec.device & 0xfffff), 3);
  line_.ch(' ').num_w(0, 2).ch(' ').num_w(sequence_, 8).ch(' ');
  line_.num_w(rec.time_ns / 1000000000, 5).ch('.').num_w(rec.time_ns % 1000000000, 9, '0').ch(' ');
  line_.num_w(0, 5).ch(' ').right(action, 2).ch(' ').right(rwbs, 3).ch(' ');
  if (rec.bytes) line_.num(rec.offset / 512).str(" + ").num(rec.bytes / 512).ch(' ');
  line_.str(tail).ch('\n');
}

void BlkparseWriter::write(const TraceRecord& rec) {
  if (rec.op == TraceOp::PowerFail) unrepresentable(out_.path(), index_, "blkparse has no power cut");
  if (rec.op == TraceOp::Flush ? rec.bytes != 0 : rec.bytes == 0)
    unrepresentable(out_.path(), index_, "blkparse: only a Flush has no sectors");
  require_aligned(rec, 512, "blkparse");
  if (rec.bytes / 512 > UINT32_MAX) unrepresentable(out_.path(), index_, "blkparse: request too large");
  std::string_view rwbs = rec.op == TraceOp::Read      ? "R"
                          : rec.op == TraceOp::Write   ? "W"
                          : rec.op == TraceOp::Discard ? "D"
                                                       : "FWS";
  (rec.op == TraceOp::Read ? reads_ : writes_)++;
  ++sequence_;
  event(rec, "Q", rwbs, "[ssdsim]");
  ++sequence_;
  event(rec, "C", rwbs, "[0]");
  line_.flush_to(out_);
  ++index_;
}

void BlkparseWriter::close() {
  if (!closed_) {
    closed_ = true;
    // The tail of a real blkparse run, for readers to recognise and skip.
    line_.str("CPU0 (ssdsim):\n Reads Queued: ").num(reads_).str(", 0KiB\t Writes Queued: ").num(writes_);
    line_.str(", 0KiB\n\nTotal (ssdsim):\n Reads Queued: ").num(reads_).str(", 0KiB\t Writes Queued: ");
    line_.num(writes_).str(", 0KiB\n\nThroughput (R/W): 0KiB/s / 0KiB/s\nEvents (ssdsim): ").num(2 * index_);
    line_.str(" entries\nSkips: 0 forward (0 -   0.0%)\n").flush_to(out_);
  }
  TextTraceWriter::close();
}

bool looks_like_blkparse(std::string_view line) {
  std::string_view f[kMaxFields];
  size_t n = split_ws(line, f, kMaxFields);
  return n >= 7 && is_device(f[0]) && is_digits(f[1]) && is_digits(f[2]) && is_decimal(f[3]) &&
         is_digits(f[4]) && find_action(f[5]) != nullptr;
}

}  // namespace traces::detail
