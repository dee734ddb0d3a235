#include "traces/fio_iolog.h"

namespace traces::detail {

namespace {
constexpr size_t kMaxFields = 5;
// Each filename costs a map entry; a cap keeps a hostile log from growing it
// without bound (fio itself handles a few files per job).
constexpr size_t kMaxFiles = 65536;

bool is_file_action(std::string_view a) { return a == "add" || a == "open" || a == "close"; }
// The actions parse_line() reads with an offset and a length.
bool is_io_action(std::string_view a) {
  return a == "read" || a == "write" || a == "trim" || a == "sync" || a == "datasync" || a == "wait";
}

std::string_view file_action_reason(std::string_view a) {
  return a == "add" ? "fio add" : a == "open" ? "fio open" : "fio close";
}
}  // namespace

TextTraceReader::Line FioReader::parse_header(std::string_view line, std::string_view& reason) {
  std::string_view t = trim(line);
  if (t == "fio version 2 iolog") {
    version_ = 2;
  } else if (t == "fio version 3 iolog") {
    version_ = 3;
  } else {
    // Not skippable: without the version nothing after it can be read.
    throw TraceError(path(), at_line(line_number()),
                     looks_like_fio(t) ? "unsupported iolog version \"" + printable(t) + "\" (reads 2 and 3)"
                                       : "not a fio iolog: expected \"fio version 2 iolog\" or "
                                         "\"fio version 3 iolog\", got \"" + printable(t) + "\"");
  }
  reason = "fio header";
  return Line::Ignored;
}

uint32_t FioReader::device_of(std::string_view file) {
  if (!devices_.empty() && file == last_file_) return last_device_;
  auto it = devices_.find(std::string(file));
  if (it == devices_.end()) {
    if (devices_.size() >= kMaxFiles)
      bad_field("filename", "more than 65536 distinct files, at", file);
    it = devices_.emplace(std::string(file), static_cast<uint32_t>(devices_.size())).first;
  }
  last_file_ = it->first;
  last_device_ = it->second;
  return last_device_;
}

TextTraceReader::Line FioReader::parse_line(std::string_view line, TraceRecord& rec, uint64_t& time,
                                            std::string_view& reason) {
  if (version_ == 0) return parse_header(line, reason);

  std::string_view f[kMaxFields];
  size_t n = split_ws(line, f, kMaxFields);
  // v3 lines carry a leading timestamp; otherwise the layouts are the same.
  const size_t skip = version_ == 3 ? 1 : 0;
  if (n != 2 + skip && n != 4 + skip) {
    throw BadRecord("unparsable line",
                    version_ == 3 ? "expected 'timestamp filename action [offset length]', found " +
                                        std::to_string(n) + " fields"
                                  : "expected 'filename action [offset length]', found " +
                                        std::to_string(n) + " fields");
  }
  if (version_ == 3) time = parse_u64(f[0], "timestamp");
  std::string_view file = f[skip], action = f[skip + 1];

  if (n == 2 + skip && action == "powerfail") {
    if (version_ == 2) time = clock_us_;
    rec.op = TraceOp::PowerFail;
    rec.device = device_of(file);
    rec.offset = rec.bytes = 0;
    return Line::Record;
  }
  if (n == 2 + skip) {
    // An I/O action here lost its offset and length (fio's parser needs them
    // too, "sync 0 0" for a sync): say that, not "unknown file action".
    if (is_io_action(action))
      throw BadRecord("bad field 'action'", "field 'action': I/O action \"" + std::string(action) +
                                                "\" needs an offset and a length (e.g. '" + std::string(action) +
                                                " 0 0')");
    if (!is_file_action(action)) bad_field("action", "unknown file action", action);
    device_of(file);
    reason = file_action_reason(action);
    return Line::Ignored;
  }

  uint64_t offset = parse_u64(f[skip + 2], "offset");
  uint64_t length = parse_u64(f[skip + 3], "length");
  if (action == "wait") {
    if (version_ == 2) {
      clock_us_ = offset <= UINT64_MAX - clock_us_ ? clock_us_ + offset : UINT64_MAX;
      reason = "fio wait";
    } else {
      reason = "fio wait (not allowed in version 3)";
    }
    return Line::Ignored;
  }
  if (version_ == 2) time = clock_us_;

  if (action == "read" || action == "write") {
    rec.op = action == "read" ? TraceOp::Read : TraceOp::Write;
  } else if (action == "trim") {
    rec.op = TraceOp::Discard;
  } else if (action == "sync" || action == "datasync") {
    rec.op = TraceOp::Flush;
    offset = length = 0;
  } else {  // (is_io_action() lists the actions of this chain and wait's above)
    bad_field("action", "unknown I/O action", action);
  }
  rec.device = device_of(file);
  rec.offset = offset;
  rec.bytes = length;
  return Line::Record;
}

FioWriter::FioWriter(const std::string& path) : TextTraceWriter(path) {
  out_.write("fio version 3 iolog\n");
}

void FioWriter::write(const TraceRecord& rec) {
  const uint64_t us = rec.time_ns / 1000;
  last_us_ = us;
  auto file = [&](uint32_t dev) -> LineBuilder& { return line_.num(us).str(" /dev/trace").num(dev).ch(' '); };
  if (opened_.insert(rec.device).second) {
    order_.push_back(rec.device);
    file(rec.device).str("add\n");
    file(rec.device).str("open\n");
  }
  switch (rec.op) {
    case TraceOp::Read: file(rec.device).str("read "); break;
    case TraceOp::Write: file(rec.device).str("write "); break;
    case TraceOp::Discard: file(rec.device).str("trim "); break;
    case TraceOp::Flush: file(rec.device).str("sync "); break;
    case TraceOp::PowerFail: file(rec.device).str("powerfail"); break;
  }
  if (rec.op == TraceOp::PowerFail) {
    line_.ch('\n');
  } else if (rec.op == TraceOp::Flush) {
    line_.str("0 0\n");
  } else {
    line_.num(rec.offset).ch(' ').num(rec.bytes).ch('\n');
  }
  line_.flush_to(out_);
  ++index_;
}

void FioWriter::close() {
  for (uint32_t dev : order_) line_.num(last_us_).str(" /dev/trace").num(dev).str(" close\n");
  order_.clear();
  line_.flush_to(out_);
  TextTraceWriter::close();
}

bool looks_like_fio(std::string_view line) {
  line = trim(line);
  const std::string_view head = "fio version ", tail = " iolog";
  return line.size() > head.size() + tail.size() && line.substr(0, head.size()) == head &&
         line.substr(line.size() - tail.size()) == tail;
}

}  // namespace traces::detail
