#include "traces/reader_support.h"

namespace traces::detail {

void ReasonCounts::add(std::string_view reason, uint64_t n) {
  for (auto& [key, count] : counts_) {
    if (key == reason) {
      count += n;
      return;
    }
  }
  counts_.emplace_back(std::string(reason), n);
}

void ReasonCounts::fold_into(std::map<std::string, uint64_t>& out) const {
  out.clear();
  for (const auto& [key, count] : counts_) out[key] += count;
}

void check_options(const std::string& path, const ReaderOptions& opts) {
  if (opts.sector_size == 0) throw TraceError(path, "", "sector_size must not be 0");
}

TextTraceReader::TextTraceReader(const std::string& path, const ReaderOptions& opts,
                                 uint64_t ns_per_unit)
    : lines_(path), opts_(opts), ns_per_unit_(ns_per_unit) {
  check_options(path, opts);
}

bool TextTraceReader::next(TraceRecord& rec) {
  std::string_view line;
  while (lines_.next(line)) {
    try {
      if (lines_.too_long()) {
        throw BadRecord("line too long", "line longer than " + std::to_string(LineReader::kMaxLine) +
                                             " bytes");
      }
      if (trim(line).empty()) {
        ignored_.add("blank line");
        continue;
      }
      uint64_t time = 0;
      std::string_view reason;
      if (parse_line(line, rec, time, reason) == Line::Ignored) {
        ignored_.add(reason);
        continue;
      }
      if (rec.bytes == 0 && rec.op != TraceOp::Flush && rec.op != TraceOp::PowerFail) {
        ignored_.add("zero-length request");  // nothing to replay
        continue;
      }
      if (have_first_ && time < last_time_) {
        throw BadRecord("time going backwards", "time going backwards: " + std::to_string(time) +
                                                    " after " + std::to_string(last_time_));
      }
      if (!have_first_) {
        have_first_ = true;
        first_time_ = time;
      }
      // Checked: a huge MSR filetime delta times 100 must not wrap.
      if (__builtin_mul_overflow(time - first_time_, ns_per_unit_, &rec.time_ns))
        bad_field("time", "out of range", std::to_string(time));
      last_time_ = time;
      rec.position = lines_.line_number();
      rec.source = lines_.path();
      ++stats_.records;
      return true;
    } catch (const BadRecord& bad) {
      if (!opts_.skip_bad) throw TraceError(lines_.path(), at_line(lines_.line_number()), bad.message);
      skipped_.add(bad.reason);
    }
  }
  return false;
}

const ReaderStats& TextTraceReader::stats() const {
  ignored_.fold_into(stats_.ignored);
  skipped_.fold_into(stats_.skipped);
  return stats_;
}

}  // namespace traces::detail
