#pragma once
// A drive's functional state in a file (--save-state / --load-state): the
// flash media, the FTL, the firmware's counters and the host's content
// shadow, so a sweep prepares a drive state once and measures it many times.
//
// Each component has one visit function that walks its state in a fixed
// order through a Checkpoint; the same walk writes (save) or reads (load),
// so the two directions cannot disagree. Every part starts with a labelled
// section, and every table's length is checked against the drive being
// loaded, so a file of another drive or another layout fails at once,
// naming the part, instead of loading garbage. The file is binary in the
// machine's own byte order (a checkpoint is a cache, not an archive format).

#include <cstdint>
#include <cstring>
#include <deque>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace ssd {

// A file that is not a checkpoint of this drive (bad input) or cannot be written.
struct CheckpointError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Checkpoint {
 public:
  Checkpoint(std::ostream& out, std::string file) : out_(&out), file_(std::move(file)) {}
  Checkpoint(std::istream& in, std::string file) : in_(&in), file_(std::move(file)) {}

  bool loading() const { return in_ != nullptr; }
  const std::string& file() const { return file_; }

  // A labelled part of the file.
  void section(const std::string& name) {
    std::string s = name;
    text(s);
    if (loading() && s != name) fail("expected part '" + name + "', found '" + s + "'");
    where_ = name;
  }
  // One trivially copyable value, with no padding: a saved state is its
  // bytes, and a padding byte holds whatever the memory held before, so the
  // same drive would save different files (spell the padding out as fields).
  template <class T>
  void value(T& v) {
    static_assert(std::is_trivially_copyable<T>::value, "value(): trivially copyable types only");
    static_assert(no_padding<T>(), "value(): a type with padding bytes");
    raw(&v, sizeof v);
  }
  // A value that must equal what this drive has (a geometry count, a size):
  // on load, a different one means another drive.
  template <class T>
  void expect(T v, const char* what) {
    T saved = v;
    value(saved);
    if (saved != v) fail(std::string(what) + " is " + std::to_string(saved) + " in the file, " + std::to_string(v) + " here");
  }
  // A table whose length the drive fixes (sized before loading).
  template <class T, class A>
  void table(std::vector<T, A>& v, const char* what) {
    static_assert(std::is_trivially_copyable<T>::value, "table(): trivially copyable elements only");
    static_assert(no_padding<T>(), "table(): elements with padding bytes");
    expect<uint64_t>(v.size(), what);
    raw(v.data(), v.size() * sizeof(T));
  }
  // A list whose length varies, at most `limit` entries.
  template <class T, class C>
  void list(C& c, uint64_t limit, const char* what) {
    uint64_t n = c.size();
    value(n);
    if (n > limit) fail(std::string(what) + ": " + std::to_string(n) + " entries, at most " + std::to_string(limit));
    if (loading()) {
      c.clear();
      for (uint64_t i = 0; i < n; ++i) {
        T x;
        value(x);
        c.push_back(x);
      }
    } else {
      for (T& x : c) value(x);
    }
  }
  void text(std::string& s) {
    uint64_t n = s.size();
    value(n);
    if (n > (1u << 20)) fail("a text field of " + std::to_string(n) + " bytes");
    if (loading()) s.resize(n);
    raw(&s[0], n);
  }
  // The checksum of everything written or read so far, written at the end
  // and checked on load: a damaged file fails instead of loading garbage.
  void seal() {
    uint64_t sum = sum_;
    raw(&sum, sizeof sum);
    if (loading() && sum != sum_before_seal_) fail("checksum mismatch (the file is damaged)");
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw CheckpointError(file_ + (where_.empty() ? "" : ": part '" + where_ + "'") + ": " + what);
  }

 private:
  // Every byte of a T is part of its value (floating point has no unique
  // representation, but no padding either).
  template <class T>
  static constexpr bool no_padding() {
    return std::has_unique_object_representations_v<T> || std::is_floating_point_v<T>;
  }
  void raw(void* p, uint64_t n) {
    if (n == 0) return;
    sum_before_seal_ = sum_;
    if (in_) {
      if (!in_->read(static_cast<char*>(p), std::streamsize(n))) fail("file ends early (truncated, or not a checkpoint)");
    } else if (!out_->write(static_cast<const char*>(p), std::streamsize(n))) {
      fail("write failed");
    }
    add(static_cast<const unsigned char*>(p), n);
  }
  // A word-at-a-time multiply-xorshift hash of each field, and its length.
  void add(const unsigned char* p, uint64_t n) {
    uint64_t h = sum_ ^ (n * 0x9e3779b97f4a7c15ull);
    for (; n >= 8; p += 8, n -= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      h = (h ^ w) * 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }
    for (; n > 0; ++p, --n) h = (h ^ *p) * 0x100000001b3ull;
    sum_ = h;
  }
  uint64_t sum_ = 0, sum_before_seal_ = 0;
  std::ostream* out_ = nullptr;
  std::istream* in_ = nullptr;
  std::string file_, where_;
};

}  // namespace ssd
