#include "traces/blktrace_binary.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <system_error>

namespace traces::detail {

namespace fs = std::filesystem;

namespace {

// Byte-order-explicit loads and stores: files of either order are read the
// same way on any host.
uint64_t load(const unsigned char* p, int n, bool big_endian) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= uint64_t{p[big_endian ? n - 1 - i : i]} << (8 * i);
  return v;
}

void store(std::string& out, uint64_t v, int n, bool big_endian) {
  for (int i = 0; i < n; ++i) out.push_back(static_cast<char>(v >> (8 * (big_endian ? n - 1 - i : i))));
}

bool magic_ok(uint32_t magic) { return (magic & 0xffffff00u) == blk::kMagic; }

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// blkparse's one- or two-letter names of the actions.
const char* const kIgnoredAction[blk::kTaLast + 1] = {
    "blktrace action unknown", "blktrace action Q", "blktrace action M", "blktrace action F",
    "blktrace action G",       "blktrace action S", "blktrace action R", "blktrace action D",
    "blktrace action C",       "blktrace action P", "blktrace action U", "blktrace action UT",
    "blktrace action I",       "blktrace action X", "blktrace action B", "blktrace action A",
    "blktrace action abort",   "blktrace action drv_data",
};
const char* const kNoteName[4] = {"blktrace note process", "blktrace note timestamp",
                                  "blktrace note message", "blktrace note other"};

// Per-file read buffer: large for one file, smaller for many so that the
// total stays bounded (4096 CPUs x 16 KiB = 64 MiB at most).
constexpr size_t kMaxFiles = 4096;
size_t buffer_for(size_t files) {
  return std::clamp<size_t>((size_t{16} << 20) / std::max<size_t>(files, 1), 16 << 10, 1 << 20);
}

// "NAME.blktrace.N" -> (NAME, N); false for other names.
bool split_cpu_file(const std::string& file, std::string& name, unsigned long& cpu) {
  static const std::string kMid = ".blktrace.";
  size_t at = file.rfind(kMid);
  if (at == std::string::npos || at == 0) return false;
  std::string digits = file.substr(at + kMid.size());
  if (digits.empty() || digits.size() > 6 || !is_digits(digits)) return false;
  name = file.substr(0, at);
  cpu = std::stoul(digits);
  return true;
}

// The NAME.blktrace.N files in `dir`, by NAME, each sorted by N.
std::map<std::string, std::vector<std::pair<unsigned long, std::string>>> cpu_files_in(const fs::path& dir) {
  std::map<std::string, std::vector<std::pair<unsigned long, std::string>>> by_name;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name;
    unsigned long cpu = 0;
    if (split_cpu_file(it->path().filename().string(), name, cpu))
      by_name[name].emplace_back(cpu, it->path().string());
  }
  for (auto& [name, files] : by_name) std::sort(files.begin(), files.end());
  return by_name;
}

std::vector<std::string> paths_of(const std::vector<std::pair<unsigned long, std::string>>& files,
                                  const std::string& path) {
  if (files.size() > kMaxFiles) throw TraceError(path, "", "more than 4096 per-CPU files");
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(f.second);
  return out;
}

}  // namespace

std::vector<std::string> blktrace_files(const std::string& path) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st)) {
    auto by_name = cpu_files_in(path);
    if (by_name.empty()) throw TraceError(path, "", "directory holds no NAME.blktrace.N files");
    if (by_name.size() > 1) {
      std::string names;
      for (const auto& [name, files] : by_name) names += (names.empty() ? "" : ", ") + name;
      throw TraceError(path, "", "directory holds several blktrace traces (" + names +
                                     "); open one by its NAME prefix");
    }
    return paths_of(by_name.begin()->second, path);
  }
  if (fs::exists(st)) return {path};
  // A NAME prefix: NAME.blktrace.0, NAME.blktrace.1, ... next to it.
  fs::path prefix(path);
  fs::path dir = prefix.has_parent_path() ? prefix.parent_path() : fs::path(".");
  auto by_name = cpu_files_in(dir);
  auto it = by_name.find(prefix.filename().string());
  if (it == by_name.end())
    throw TraceError(path, "", "no such file, and no " + prefix.filename().string() + ".blktrace.N files");
  return paths_of(it->second, path);
}

bool has_blktrace_magic(const unsigned char* data, size_t size) {
  return size >= 4 && (magic_ok(static_cast<uint32_t>(load(data, 4, false))) ||
                       magic_ok(static_cast<uint32_t>(load(data, 4, true))));
}

struct BlktraceReader::Input {
  Input(const std::string& path, size_t buffer) : file(path, buffer) {}
  InputFile file;
  size_t index = 0;           // tie-break of the merge: equal times keep file order
  bool order_known = false, big_endian = false;
  bool has_last = false;
  uint64_t last_time = 0;     // of the last event (not note) in this file
  uint64_t time = 0;          // of the head record
  TraceRecord head;
};

BlktraceReader::BlktraceReader(const std::string& path, const ReaderOptions& opts)
    : opts_(opts), arrival_(opts.arrival == ReaderOptions::Arrival::Issue ? blk::kTaIssue : blk::kTaQueue) {
  check_options(path, opts);
  std::vector<std::string> files = blktrace_files(path);
  for (const std::string& f : files) {
    inputs_.push_back(std::make_unique<Input>(f, buffer_for(files.size())));
    inputs_.back()->index = inputs_.size() - 1;
  }
}

BlktraceReader::~BlktraceReader() = default;

// A record whose end cannot be known (the reader still stands at its
// start): count it once, then scan forward byte by byte to the next header
// with a valid magic and version in this file's byte order.
void BlktraceReader::resync(Input& in, uint64_t offset, const char* reason, const std::string& message) {
  if (!opts_.skip_bad) throw TraceError(in.file.path(), at_offset(offset), message);
  skipped_.add(reason);
  for (bool first = true;; first = false) {
    const size_t got = in.file.fill(4);
    if (got < 4) {
      in.file.consume(got);
      break;
    }
    const auto* p = reinterpret_cast<const unsigned char*>(in.file.data());
    const uint32_t magic = static_cast<uint32_t>(load(p, 4, in.big_endian));
    if (!first && magic_ok(magic) && (magic & 0xff) == blk::kVersion) break;
    in.file.consume(1);
  }
  resync_bytes_ += in.file.offset() - offset;
}

// A well-formed record that cannot be used: skip just this one.
void BlktraceReader::bad_event(Input& in, uint64_t offset, const char* reason, const std::string& message) {
  if (!opts_.skip_bad) throw TraceError(in.file.path(), at_offset(offset), message);
  skipped_.add(reason);
}

// Reads `in` up to its next arrival event; false at its end.
bool BlktraceReader::advance(Input& in) {
  for (;;) {
    const uint64_t offset = in.file.offset();
    const size_t got = in.file.fill(blk::kRecordSize);
    if (got == 0) return false;
    if (got < blk::kRecordSize) {  // at the end of the file
      resync(in, offset, "truncated record", "truncated record: " + std::to_string(got) + " of 48 header bytes");
      return false;
    }
    const auto* p = reinterpret_cast<const unsigned char*>(in.file.data());
    if (!in.order_known) {
      in.big_endian = !magic_ok(static_cast<uint32_t>(load(p, 4, false))) &&
                      magic_ok(static_cast<uint32_t>(load(p, 4, true)));
      in.order_known = true;
    }
    const bool be = in.big_endian;
    const uint32_t magic = static_cast<uint32_t>(load(p, 4, be));
    if (!magic_ok(magic)) {
      resync(in, offset, "bad magic", "bad magic " + hex32(magic));
      continue;
    }
    if ((magic & 0xff) != blk::kVersion) {
      resync(in, offset, "unsupported version",
             "unsupported blktrace version " + std::to_string(magic & 0xff) + " (magic " + hex32(magic) +
                 "; reads version 7)");
      continue;
    }
    const uint64_t time = load(p + 8, 8, be);
    const uint64_t sector = load(p + 16, 8, be);
    const uint32_t bytes = static_cast<uint32_t>(load(p + 24, 4, be));
    const uint32_t action = static_cast<uint32_t>(load(p + 28, 4, be));
    const uint32_t device = static_cast<uint32_t>(load(p + 36, 4, be));
    const uint16_t pdu_len = static_cast<uint16_t>(load(p + 46, 2, be));
    // A pdu that runs past the end of the file means a corrupt length (or a
    // cut file): while the whole record fits the buffer this is known before
    // anything is consumed, so the reader can resynchronise from here.
    const size_t whole = blk::kRecordSize + size_t{pdu_len};
    if (whole <= in.file.capacity() && in.file.fill(whole) < whole) {
      resync(in, offset, "truncated record",
             "truncated record: pdu of " + std::to_string(pdu_len) + " bytes runs past the end of the file");
      continue;
    }
    in.file.consume(blk::kRecordSize);
    if (in.file.skip(pdu_len) < pdu_len) {  // only for a pdu larger than the buffer
      if (!opts_.skip_bad)
        throw TraceError(in.file.path(), at_offset(offset),
                         "truncated record: pdu of " + std::to_string(pdu_len) + " bytes runs past the end of the file");
      skipped_.add("truncated record");
      resync_bytes_ += in.file.offset() - offset;
      return false;
    }

    const uint32_t categories = action >> blk::kCategoryShift;
    const uint32_t code = action & 0xffff & ~blk::kTaCgroup;
    if (categories & blk::kTcNotify) {
      ++notes_[std::min<uint32_t>(code, 3)];
      continue;
    }
    if (in.has_last && time < in.last_time) {
      bad_event(in, offset, "time going backwards",
                "time going backwards: " + std::to_string(time) + " ns after " + std::to_string(in.last_time));
      continue;
    }
    in.has_last = true;
    in.last_time = time;
    if (code != arrival_) {
      ++ignored_actions_[code <= blk::kTaLast ? code : 0];
      continue;
    }
    if (categories & blk::kTcPc) {
      ignored_.add("blktrace PC request");
      continue;
    }

    TraceRecord& rec = in.head;
    if (categories & blk::kTcDiscard) {
      rec.op = TraceOp::Discard;
    } else if (bytes == 0 && (categories & blk::kTcFlush)) {
      rec.op = TraceOp::Flush;
    } else if (categories & blk::kTcWrite) {
      rec.op = TraceOp::Write;
    } else {
      rec.op = TraceOp::Read;
    }
    if (bytes == 0 && rec.op != TraceOp::Flush) {
      ignored_.add("zero-length request");
      continue;
    }
    if (sector > (UINT64_MAX >> 9)) {
      bad_event(in, offset, "bad field 'sector'", "field 'sector': out of range \"" + std::to_string(sector) + "\"");
      continue;
    }
    rec.offset = rec.op == TraceOp::Flush ? 0 : sector << 9;
    rec.bytes = bytes;
    rec.device = device;
    rec.position = offset;
    rec.source = in.file.path();
    in.time = time;
    return true;
  }
}

bool BlktraceReader::next(TraceRecord& rec) {
  // Min-heap on (time, file index); std heaps are max-heaps, hence "later".
  auto later = [](const Input* a, const Input* b) {
    return a->time != b->time ? a->time > b->time : a->index > b->index;
  };
  // First call: read one record ahead in every file. (An index rather than
  // a flag, so that after a TraceError from one file the others still start.)
  while (primed_ < inputs_.size()) {
    Input* in = inputs_[primed_++].get();
    if (advance(*in)) {
      heap_.push_back(in);
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
  }
  // Refill the file whose record went out last time only now, so that a bad
  // record in it surfaces after every record before it.
  if (Input* in = pending_) {
    pending_ = nullptr;
    if (advance(*in)) {
      heap_.push_back(in);
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
  }
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), later);
  Input* in = heap_.back();
  heap_.pop_back();
  if (!have_first_) {
    have_first_ = true;
    first_time_ = in->time;
  }
  rec = in->head;
  rec.time_ns = in->time - first_time_;
  pending_ = in;
  ++stats_.records;
  return true;
}

const ReaderStats& BlktraceReader::stats() const {
  ignored_.fold_into(stats_.ignored);
  for (uint32_t code = 0; code <= blk::kTaLast; ++code)
    if (ignored_actions_[code]) stats_.ignored[kIgnoredAction[code]] += ignored_actions_[code];
  for (size_t kind = 0; kind < notes_.size(); ++kind)
    if (notes_[kind]) stats_.ignored[kNoteName[kind]] += notes_[kind];
  skipped_.fold_into(stats_.skipped);
  stats_.resync_bytes = resync_bytes_;
  return stats_;
}

BlktraceWriter::BlktraceWriter(const std::string& path, bool big_endian)
    : out_(file_of(path)), big_endian_(big_endian) {}

void BlktraceWriter::put(const BlkIoTrace& t, std::string_view pdu) {
  std::string b;
  b.reserve(blk::kRecordSize + pdu.size());
  const bool be = big_endian_;
  store(b, t.magic, 4, be);
  store(b, t.sequence, 4, be);
  store(b, t.time, 8, be);
  store(b, t.sector, 8, be);
  store(b, t.bytes, 4, be);
  store(b, t.action, 4, be);
  store(b, t.pid, 4, be);
  store(b, t.device, 4, be);
  store(b, t.cpu, 4, be);
  store(b, t.error, 2, be);
  store(b, pdu.size(), 2, be);
  b.append(pdu);
  out_.write(b);
}

void BlktraceWriter::write(const TraceRecord& rec) {
  const std::string& path = out_.path();
  if (rec.op == TraceOp::PowerFail) unrepresentable(path, index_, "blktrace has no power cut");
  if (rec.offset % 512 != 0) unrepresentable(path, index_, "blktrace: offset not on a 512-byte sector");
  if (rec.bytes > UINT32_MAX) unrepresentable(path, index_, "blktrace: request of 4 GiB or more");
  if ((rec.op == TraceOp::Flush) != (rec.bytes == 0))
    unrepresentable(path, index_, "blktrace: only a Flush has no bytes");
  if (index_ > 0 && rec.time_ns < last_time_) unrepresentable(path, index_, "blktrace: records out of time order");
  // Absolute times like a since-boot clock; readers make them relative.
  constexpr uint64_t kBootTime = 1000000000;
  BlkIoTrace t;
  t.time = kBootTime + rec.time_ns;
  t.device = rec.device;
  t.pid = 1;
  if (index_ == 0) {
    t.action = blk::category(blk::kTcNotify) | blk::kTnProcess;
    put(t, std::string_view("ssdsim\0\0\0\0\0\0\0\0\0\0", 16));
  }
  uint32_t tc = 0;
  switch (rec.op) {
    case TraceOp::Read: tc = blk::kTcRead; break;
    case TraceOp::Write: tc = blk::kTcWrite; break;
    case TraceOp::Discard: tc = blk::kTcWrite | blk::kTcDiscard; break;
    case TraceOp::Flush: tc = blk::kTcWrite | blk::kTcFlush | blk::kTcSync; break;
    case TraceOp::PowerFail: break;  // refused above
  }
  t.sector = rec.offset >> 9;
  t.bytes = static_cast<uint32_t>(rec.bytes);
  t.sequence = ++sequence_;
  t.action = blk::kTaQueue | blk::category(tc | blk::kTcQueue);
  put(t);
  t.sequence = ++sequence_;
  t.action = blk::kTaComplete | blk::category(tc | blk::kTcComplete);
  put(t);
  last_time_ = rec.time_ns;
  ++index_;
}

}  // namespace traces::detail
