#pragma once
// Pieces every reader needs: per-reason counters for ReaderStats and the
// line-oriented reader skeleton that all text formats share (line loop,
// bad-record policy, time-order check, time relative to the first record).

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "traces/buffered_input.h"
#include "traces/text_fields.h"
#include "traces/trace_reader.h"

namespace traces::detail {

// Counts by reason. Reasons come from a small fixed set per reader, so a
// linear scan beats a std::map lookup on the per-line path; fold_into()
// publishes the counts into a ReaderStats map.
class ReasonCounts {
 public:
  void add(std::string_view reason, uint64_t n = 1);
  void fold_into(std::map<std::string, uint64_t>& out) const;

 private:
  std::vector<std::pair<std::string, uint64_t>> counts_;
};

// Base of the text readers. A format implements parse_line(); this class
// owns the line loop and applies the shared policy:
//  - blank lines are ignored ("blank line"), and so are records of zero
//    bytes other than flushes ("zero-length request");
//  - a BadRecord thrown by parse_line becomes TraceError("FILE: line N: ...")
//    or, with skip_bad, a count in stats().skipped;
//  - records must be in time order (a record earlier than the previous one is
//    a bad record: "time going backwards");
//  - time_ns is (time - time of the first record) * ns_per_unit.
class TextTraceReader : public TraceReader {
 public:
  bool next(TraceRecord& rec) final;
  const ReaderStats& stats() const final;

 protected:
  TextTraceReader(const std::string& path, const ReaderOptions& opts, uint64_t ns_per_unit);

  enum class Line { Record, Ignored };
  // Parses one non-blank line. For a record, fills rec.op/offset/bytes/device
  // and `time` in the format's own unit; for an ignored line, sets `reason`
  // (a string literal) and returns Line::Ignored. Throws BadRecord.
  virtual Line parse_line(std::string_view line, TraceRecord& rec, uint64_t& time,
                          std::string_view& reason) = 0;

  uint64_t line_number() const { return lines_.line_number(); }
  const std::string& path() const { return lines_.path(); }
  const ReaderOptions& options() const { return opts_; }

 private:
  LineReader lines_;
  ReaderOptions opts_;
  uint64_t ns_per_unit_;
  bool have_first_ = false;
  uint64_t first_time_ = 0, last_time_ = 0;
  ReasonCounts ignored_, skipped_;
  mutable ReaderStats stats_;
};

// "byte offset N" / "line N", the `where` of a TraceError.
inline std::string at_offset(uint64_t off) { return "byte offset " + std::to_string(off); }
inline std::string at_line(uint64_t line) { return "line " + std::to_string(line); }

// Checks ReaderOptions shared by all readers; throws TraceError naming `path`.
void check_options(const std::string& path, const ReaderOptions& opts);

}  // namespace traces::detail
