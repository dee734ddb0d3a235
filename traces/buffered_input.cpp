#include "traces/buffered_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "traces/trace_reader.h"

namespace traces::detail {

InputFile::InputFile(const std::string& path, size_t buffer_size) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw TraceError(path, "", std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw TraceError(path, "", "is a directory");
  }
  // A small file gets a buffer just big enough to hold it.
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) < buffer_size)
    buffer_size = std::max<size_t>(static_cast<size_t>(st.st_size) + 1, 4096);
  buf_.reset(new char[buffer_size]);
  cap_ = buffer_size;
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void InputFile::read_more() {
  while (!eof_ && end_ < cap_) {
    ssize_t n = ::read(fd_, buf_.get() + end_, cap_ - end_);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw TraceError(path_, "byte offset " + std::to_string(file_pos_),
                       std::string("read error: ") + std::strerror(errno));
    }
    if (n == 0) {
      eof_ = true;
      break;
    }
    end_ += static_cast<size_t>(n);
    file_pos_ += static_cast<uint64_t>(n);
    // One large read is enough; looping to a completely full buffer only
    // matters for pipes, which return small chunks.
    if (end_ - pos_ >= cap_ / 2) break;
  }
}

size_t InputFile::fill(size_t want) {
  want = std::min(want, cap_);
  if (end_ - pos_ >= want || eof_) return end_ - pos_;
  // Move the unread tail (at most one partial record or line) to the front.
  if (pos_ > 0) {
    std::memmove(buf_.get(), buf_.get() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
  }
  while (end_ < want && !eof_) read_more();
  return end_ - pos_;
}

uint64_t InputFile::skip(uint64_t n) {
  uint64_t done = 0;
  while (done < n) {
    if (available() == 0 && fill(1) == 0) break;
    size_t step = static_cast<size_t>(std::min<uint64_t>(n - done, available()));
    consume(step);
    done += step;
  }
  return done;
}

bool LineReader::next(std::string_view& line) {
  if (line_no_ == 0) {
    // A UTF-8 byte-order mark (CSV files saved on Windows) is not content.
    if (in_.fill(3) >= 3 && std::memcmp(in_.data(), "\xEF\xBB\xBF", 3) == 0) in_.consume(3);
  }
  too_long_ = false;
  size_t scanned = 0;  // bytes at data() already known to hold no '\n'
  for (;;) {
    const char* p = in_.data();
    size_t avail = in_.available();
    if (const void* nl = std::memchr(p + scanned, '\n', avail - scanned)) {
      size_t len = static_cast<const char*>(nl) - p;
      in_.consume(len + 1);
      if (len > 0 && p[len - 1] == '\r') --len;
      // The limit holds whether or not the line happened to fit the buffer.
      too_long_ = len > kMaxLine;
      line = too_long_ ? std::string_view() : std::string_view(p, len);
      ++line_no_;
      return true;
    }
    scanned = avail;
    // (A full buffer can only happen to a file that grew after it was opened
    // with a small buffer; reading on would then never find the end.)
    if (avail > kMaxLine || avail == in_.capacity()) {
      // Drop the rest of this line without buffering it.
      too_long_ = true;
      for (;;) {
        in_.consume(in_.available());
        if (in_.fill(1) == 0) break;
        const char* q = in_.data();
        if (const void* nl = std::memchr(q, '\n', in_.available())) {
          in_.consume(static_cast<const char*>(nl) - q + 1);
          break;
        }
      }
      line = std::string_view();
      ++line_no_;
      return true;
    }
    if (in_.eof()) {
      if (avail == 0) return false;
      in_.consume(avail);
      if (p[avail - 1] == '\r') --avail;
      too_long_ = avail > kMaxLine;
      line = too_long_ ? std::string_view() : std::string_view(p, avail);
      ++line_no_;
      return true;
    }
    in_.fill(avail + 1);
  }
}

}  // namespace traces::detail
