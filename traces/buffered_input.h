#pragma once
// Streaming input shared by every reader: a file read in large blocks into
// one fixed buffer, so a multi-GB trace is parsed in constant memory with
// few system calls. InputFile serves binary records (fill/consume/skip);
// LineReader splits the same buffer into text lines without copying them.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace traces::detail {

class InputFile {
 public:
  static constexpr size_t kDefaultBuffer = size_t{1} << 20;

  // Throws TraceError naming `path` if it cannot be opened. A regular file
  // smaller than buffer_size gets a buffer of its size (at least 4 KiB).
  explicit InputFile(const std::string& path, size_t buffer_size = kDefaultBuffer);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }

  // Makes at least `want` bytes (want <= capacity()) contiguous at data(),
  // reading more as needed. Returns the bytes available there, which is less
  // than `want` only at end of file.
  size_t fill(size_t want);
  const char* data() const { return buf_.get() + pos_; }
  size_t available() const { return end_ - pos_; }
  void consume(size_t n) { pos_ += n; }  // n <= available()
  bool eof() const { return eof_; }
  size_t capacity() const { return cap_; }

  // File offset of data().
  uint64_t offset() const { return file_pos_ - (end_ - pos_); }

  // Skips n bytes by reading through them (works on pipes too, and never
  // needs a buffer sized from the untrusted count). Returns the bytes
  // actually skipped: less than n only at end of file.
  uint64_t skip(uint64_t n);

 private:
  void read_more();

  std::string path_;
  int fd_ = -1;
  std::unique_ptr<char[]> buf_;
  size_t cap_ = 0, pos_ = 0, end_ = 0;
  uint64_t file_pos_ = 0;  // offset of buf_[end_]
  bool eof_ = false;
};

// Lines of a text file, '\n' or "\r\n" terminated (a last line without a
// terminator counts); a UTF-8 byte-order mark before the first line is
// dropped. The returned view points into the buffer and is valid until the
// next call.
class LineReader {
 public:
  // A longer line is reported with too_long() instead of growing the buffer.
  static constexpr size_t kMaxLine = 64 * 1024;

  explicit LineReader(const std::string& path) : in_(path) {}

  bool next(std::string_view& line);
  uint64_t line_number() const { return line_no_; }  // 1-based, of the last line returned
  bool too_long() const { return too_long_; }        // last line exceeded kMaxLine (view is empty)
  const std::string& path() const { return in_.path(); }

 private:
  InputFile in_;
  uint64_t line_no_ = 0;
  bool too_long_ = false;
};

}  // namespace traces::detail
