#pragma once
// Output side of the round trip: a buffered file plus a small line builder
// (std::to_chars, no printf parsing) so generating the multi-million-record
// benchmark traces stays fast.

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "traces/trace_reader.h"

namespace traces::detail {

class OutputFile {
 public:
  explicit OutputFile(const std::string& path);  // throws TraceError
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view bytes);
  void close();  // flushes; throws TraceError on a write error. Idempotent.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* f_ = nullptr;
};

class LineBuilder {
 public:
  LineBuilder& str(std::string_view s) {
    buf_.append(s);
    return *this;
  }
  LineBuilder& ch(char c) {
    buf_.push_back(c);
    return *this;
  }
  LineBuilder& num(uint64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
    return *this;
  }
  // v right-aligned in `width` columns (blkparse's %5d style).
  LineBuilder& num_w(uint64_t v, size_t width, char pad = ' ') {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    for (size_t n = static_cast<size_t>(r.ptr - tmp); n < width; ++n) buf_.push_back(pad);
    buf_.append(tmp, r.ptr);
    return *this;
  }
  // s padded with spaces to `width` columns (printf's %5s / %-5s).
  LineBuilder& right(std::string_view s, size_t width) {
    for (size_t n = s.size(); n < width; ++n) buf_.push_back(' ');
    return str(s);
  }
  LineBuilder& left(std::string_view s, size_t width) {
    str(s);
    for (size_t n = s.size(); n < width; ++n) buf_.push_back(' ');
    return *this;
  }
  // v / 10^digits as a fixed-point decimal: frac(1500, 3) -> "1.500".
  LineBuilder& frac(uint64_t v, unsigned digits) {
    uint64_t scale = 1;
    for (unsigned i = 0; i < digits; ++i) scale *= 10;
    num(v / scale).ch('.');
    return num_w(v % scale, digits, '0');
  }
  void flush_to(OutputFile& out) {
    out.write(buf_);
    buf_.clear();
  }

 private:
  std::string buf_;
};

// TraceError for a record a writer cannot represent ("record 12: ...").
[[noreturn]] void unrepresentable(const std::string& path, uint64_t index, const std::string& what);

// Base of the text writers: the output file, a line buffer, the index of the
// record being written (for errors) and the checks most formats need.
class TextTraceWriter : public TraceWriter {
 public:
  void close() override { out_.close(); }

 protected:
  explicit TextTraceWriter(const std::string& path) : out_(path) {}
  // Only Read and Write exist in the CSV/ASCII formats (MSR, SPC, DiskSim, Alibaba).
  void require_read_write(const TraceRecord& rec, const char* format) const;
  // Formats that count sectors need offset and size on sector boundaries.
  void require_aligned(const TraceRecord& rec, uint64_t sector, const char* format) const;

  OutputFile out_;
  LineBuilder line_;
  uint64_t index_ = 0;  // records written so far
};

}  // namespace traces::detail
