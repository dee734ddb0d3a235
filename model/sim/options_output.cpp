// The files a run writes: each output path names a file of its own, and
// none names a file the run reads. A report written over the job file or
// the trace it came from, or two outputs on one path, would silently
// destroy data the user cannot get back (the later writer wins).
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <utility>
#include <vector>

#include "model/sim/options.h"
#include "traces/blktrace_binary.h"
#include "traces/trace_reader.h"

namespace ssd {

namespace {

// One identity of a file: an existing file's device and inode, so that
// every name of it (a hard link, a symbolic link, `..`) compares equal; a
// file not yet made, its path with symbolic links and `..` resolved (its
// folder's, for the part that exists).
std::string same_file_key(const std::string& path) {
  if (struct stat st; stat(path.c_str(), &st) == 0)
    return "inode " + std::to_string(uint64_t(st.st_dev)) + ":" + std::to_string(uint64_t(st.st_ino));
  // (Absolute first: a relative name of a file not yet made has no part
  // that exists, and would stay as given, unlike `./` + it.)
  std::error_code ec;
  const std::filesystem::path full = std::filesystem::absolute(path, ec);
  if (ec) return path;
  const std::string canon = std::filesystem::weakly_canonical(full, ec).string();
  return ec ? full.lexically_normal().string() : canon;
}

// Whether `path` names the file standard output writes to (/dev/stdout, or
// the file a shell redirected it to). /dev/null is no one's output.
bool is_standard_output(const std::string& path) {
  struct stat out, file;
  if (fstat(STDOUT_FILENO, &out) != 0 || stat(path.c_str(), &file) != 0) return false;
  if (S_ISCHR(file.st_mode) && file.st_rdev == makedev(1, 3)) return false;
  return out.st_dev == file.st_dev && out.st_ino == file.st_ino;
}

}  // namespace

void Options::check_output_paths(const SimConfig& c) const {
  // Every option that names a file the run writes, and that file (an
  // exported blktrace goes to NAME.blktrace.0, the file of its writer).
  const std::vector<std::pair<const char*, std::string>> outputs = {
      {"report", c.report},
      {"latency-log", c.latency_log},
      {"timeseries", c.timeseries},
      {"export-trace", c.export_trace.empty() ? "" : traces::trace_writer_file(c.export_trace, c.export_format)},
      {"vcd", c.vcd},
      {"activity", c.activity},
      {"powerfail.lost", c.powerfail_lost},
      {"output", c.output},
      {"save-state", c.save_state},
  };
  // '-' is stdout by habit, but here it would be a file named '-'.
  for (const auto& [key, path] : outputs)
    if (text(key) == "-")
      throw error(key, std::string("'-' would be a file named '-' (not stdout): ") +
                           (key == std::string("report") ? "for the JSON report on stdout use --output-format=json"
                                                         : "name a file"));

  // Standard output carries the run's summary (or its JSON report): a file
  // written there too would be mixed into it. (With --output, the summary
  // goes to that file instead.)
  if (c.output.empty())
    for (const auto& [key, path] : outputs)
      if (!path.empty() && key != std::string("output") && is_standard_output(path))
        throw error(key, path + " is standard output, where the run's summary goes: the two would be mixed" +
                             (key == std::string("report") ? " (for the JSON report alone on stdout use --output-format=json)"
                                                           : ""));

  // What the run reads: its config files, the job file, the trace (the
  // path given: a file, a blktrace NAME prefix or a folder), a state file
  // and its trace phases, a saved state, FTL plug-ins.
  std::map<std::string, std::string> read;  // file -> the option that reads it
  const auto reads = [&](const std::string& option, const std::string& path) {
    if (!path.empty()) read.emplace(same_file_key(path), option);
  };
  for (const std::string& f : config_files_) reads("config", f);
  reads("job", c.job_file);
  // A trace given as a folder or a blktrace NAME prefix reads the
  // NAME.blktrace.N files it stands for. (One that names none is the
  // replay's error to report.)
  const auto reads_trace = [&](const std::string& option, const std::string& path) {
    reads(option, path);
    if (std::error_code ec; !path.empty() && !std::filesystem::is_regular_file(path, ec)) try {
        for (const std::string& f : traces::detail::blktrace_files(path)) reads(option, f);
      } catch (const traces::TraceError&) {
      }
  };
  reads_trace("trace", c.replay.path);
  reads("load-state", c.load_state);
  reads("ftl.plugin", text("ftl.plugin"));
  std::error_code ec;
  if (const std::string& s = text("state"); !s.empty() && std::filesystem::is_regular_file(s, ec)) reads("state", s);
  for (const StatePhase& p : c.state.phases)
    if (p.kind == StatePhase::Kind::Trace) reads_trace("state", p.path);

  std::map<std::string, std::string> written;  // file -> the option that writes it
  for (const auto& [key, path] : outputs) {
    if (path.empty()) continue;
    const std::string file = same_file_key(path);
    if (const auto it = read.find(file); it != read.end())
      throw error(key, "is the file --" + it->second + " reads (" + path + "): it would be overwritten");
    const auto [it, fresh] = written.emplace(file, key);
    if (!fresh) throw error(key, "writes to the same file as " + it->second + " (" + path + ")");
  }
}

}  // namespace ssd
