#include "traces/trace_reader.h"

#include <filesystem>

#include "traces/alibaba_trace.h"
#include "traces/blkparse_text.h"
#include "traces/blktrace_binary.h"
#include "traces/buffered_input.h"
#include "traces/disksim_trace.h"
#include "traces/fio_iolog.h"
#include "traces/msr_trace.h"
#include "traces/spc_trace.h"

namespace traces {

namespace {

struct Format {
  const char* name;
  // Does a (non-blank) line look like this format? nullptr: binary format.
  bool (*looks_like)(std::string_view line);
  std::unique_ptr<TraceReader> (*open)(const std::string& path, const ReaderOptions& opts);
  std::unique_ptr<TraceWriter> (*create_writer)(const std::string& path);
  std::string (*writer_file)(const std::string& path);  // the file create_writer(path) writes
};

template <class Reader>
std::unique_ptr<TraceReader> open_as(const std::string& path, const ReaderOptions& opts) {
  return std::make_unique<Reader>(path, opts);
}
template <class Writer>
std::unique_ptr<TraceWriter> write_as(const std::string& path) {
  return std::make_unique<Writer>(path);
}
// A writer of one file at the path itself (every format but blktrace).
std::string at_path(const std::string& path) { return path; }

// In detection order: the stricter shapes first (fio's header, blkparse's
// "M,m" device column, MSR's 7 fields with Read/Write) before the looser
// 5-field CSV and whitespace layouts.
const Format kFormats[] = {
    {"blktrace", nullptr, open_as<detail::BlktraceReader>, write_as<detail::BlktraceWriter>,
     detail::BlktraceWriter::file_of},
    {"fio", detail::looks_like_fio, open_as<detail::FioReader>, write_as<detail::FioWriter>, at_path},
    {"blkparse", detail::looks_like_blkparse, open_as<detail::BlkparseReader>, write_as<detail::BlkparseWriter>,
     at_path},
    {"msr", detail::looks_like_msr, open_as<detail::MsrReader>, write_as<detail::MsrWriter>, at_path},
    {"alibaba", detail::looks_like_alibaba, open_as<detail::AlibabaReader>, write_as<detail::AlibabaWriter>, at_path},
    {"spc", detail::looks_like_spc, open_as<detail::SpcReader>, write_as<detail::SpcWriter>, at_path},
    {"disksim", detail::looks_like_disksim, open_as<detail::DiskSimReader>, write_as<detail::DiskSimWriter>, at_path},
};

const Format* find_format(const std::string& name) {
  for (const Format& f : kFormats)
    if (name == f.name) return &f;
  return nullptr;
}

std::string format_list() {
  std::string s;
  for (const Format& f : kFormats) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s;
}

const Format& require_format(const std::string& path, const std::string& name) {
  const Format* f = find_format(name);
  if (!f) throw TraceError(path, "", "unknown trace format \"" + name + "\" (known: " + format_list() + ")");
  return *f;
}

}  // namespace

const char* to_string(TraceOp op) {
  switch (op) {
    case TraceOp::Read: return "Read";
    case TraceOp::Write: return "Write";
    case TraceOp::Discard: return "Discard";
    case TraceOp::Flush: return "Flush";
    case TraceOp::PowerFail: return "PowerFail";
  }
  return "?";
}

static std::string error_message(const std::string& file, const std::string& where, const std::string& what) {
  return where.empty() ? file + ": " + what : file + ": " + where + ": " + what;
}

TraceError::TraceError(const std::string& file, const std::string& where, const std::string& what)
    : std::runtime_error(error_message(file, where, what)), file_(file), where_(where), detail_(what) {}

std::vector<std::string> trace_formats() {
  std::vector<std::string> names;
  for (const Format& f : kFormats) names.push_back(f.name);
  return names;
}

std::string detect_format(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  // Directories and NAME prefixes only make sense for per-CPU blktrace files;
  // blktrace_files() says what is wrong if they hold none.
  if (fs::is_directory(st) || !fs::exists(st)) {
    detail::blktrace_files(path);
    return "blktrace";
  }
  // The format is read off the file's start, which a pipe (`<(zcat t.gz)`)
  // or a device cannot give back to the reader that follows: the records
  // would start wherever the look left off.
  if (!fs::is_regular_file(st))
    throw TraceError(path, "", "not a regular file (a pipe or a device): its format cannot be detected without "
                                "consuming its start: write the trace to a file (or, replaying it, name its format with --trace.format)");

  // Look at the start of the file only: the first 64 KiB, at most 64 lines.
  detail::InputFile in(path, 64 * 1024);
  size_t n = in.fill(in.capacity());
  const auto* bytes = reinterpret_cast<const unsigned char*>(in.data());
  if (detail::has_blktrace_magic(bytes, n)) return "blktrace";

  std::string_view head(in.data(), n);
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);  // UTF-8 byte-order mark
  // The last line may be cut by the 64 KiB window: only complete lines count.
  if (!in.eof()) head = head.substr(0, head.rfind('\n') + 1);
  int lines = 0;
  while (!head.empty() && lines < 64) {
    size_t nl = head.find('\n');
    std::string_view line = head.substr(0, nl);
    head = nl == std::string_view::npos ? std::string_view() : head.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (detail::trim(line).empty()) continue;
    ++lines;
    // A line no format claims (a blkparse notice before the events, say) is
    // passed over; the first line some format claims decides.
    for (const Format& f : kFormats)
      if (f.looks_like && f.looks_like(line)) return f.name;
  }
  throw TraceError(path, "", "unknown trace format (not one of: " + format_list() + ")");
}

std::unique_ptr<TraceReader> open_trace(const std::string& path, const std::string& format,
                                        const ReaderOptions& opts) {
  const std::string name = format.empty() ? detect_format(path) : format;
  return require_format(path, name).open(path, opts);
}

std::unique_ptr<TraceWriter> create_trace_writer(const std::string& path, const std::string& format) {
  return require_format(path, format).create_writer(path);
}

std::string trace_writer_file(const std::string& path, const std::string& format) {
  return require_format(path, format).writer_file(path);
}

}  // namespace traces
