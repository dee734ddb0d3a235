#pragma once
// Helpers shared by the trace reader tests: sample paths, draining a reader,
// scratch directories, and small independent parsers used to compute
// expected values without going through the readers under test.

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include "traces/trace_reader.h"

namespace trace_test {

namespace fs = std::filesystem;

inline std::string sample(const std::string& rel) {
  return std::string(SSDSIM_SOURCE_DIR) + "/traces/samples/" + rel;
}

// A record with its own copy of the source name (TraceRecord::source only
// lives as long as the reader).
struct Rec {
  uint64_t time_ns;
  traces::TraceOp op;
  uint64_t offset, bytes;
  uint32_t device;
  uint64_t position;
  std::string source;
};

inline std::vector<Rec> read_all(traces::TraceReader& r) {
  std::vector<Rec> out;
  traces::TraceRecord t;
  while (r.next(t)) out.push_back({t.time_ns, t.op, t.offset, t.bytes, t.device, t.position, std::string(t.source)});
  return out;
}

inline std::vector<Rec> read_all(const std::string& path, const std::string& format = "",
                                 traces::ReaderOptions opts = {}) {
  auto r = traces::open_trace(path, format, opts);
  return read_all(*r);
}

inline std::vector<Rec> only(const std::vector<Rec>& recs, std::initializer_list<traces::TraceOp> ops) {
  std::vector<Rec> out;
  for (const Rec& r : recs)
    for (traces::TraceOp op : ops)
      if (r.op == op) out.push_back(r);
  return out;
}

inline uint64_t count(const std::vector<Rec>& recs, traces::TraceOp op) {
  uint64_t n = 0;
  for (const Rec& r : recs) n += r.op == op;
  return n;
}

inline uint64_t bytes(const std::vector<Rec>& recs, traces::TraceOp op) {
  uint64_t n = 0;
  for (const Rec& r : recs)
    if (r.op == op) n += r.bytes;
  return n;
}

inline uint64_t stat(const std::map<std::string, uint64_t>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

// A fresh directory under the system temp dir, removed with the object.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("ssdsim-trace-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

inline void write_file(const std::string& path, std::string_view content) {
  std::ofstream f(path, std::ios::binary);
  f.write(content.data(), static_cast<std::streamsize>(content.size()));
}

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::vector<std::string> tokens(const std::string& line, char delim = 0) {
  std::vector<std::string> out;
  if (delim) {
    std::stringstream ss(line);
    std::string t;
    while (std::getline(ss, t, delim)) out.push_back(t);
  } else {
    std::istringstream ss(line);
    std::string t;
    while (ss >> t) out.push_back(t);
  }
  return out;
}

// The number after "key": in `json`, searched after each key of `path` in
// turn (enough for the flat summary.json files of the samples).
inline uint64_t json_number(const std::string& json, std::initializer_list<std::string> path) {
  size_t at = 0;
  for (const std::string& key : path) {
    at = json.find("\"" + key + "\"", at);
    if (at == std::string::npos) {
      ADD_FAILURE() << "key " << key << " not found";
      return 0;
    }
    at += key.size() + 2;
  }
  at = json.find(':', at);
  return std::stoull(json.substr(at + 1));
}

// Writes `records` in `format` to `path` with create_trace_writer.
inline void write_trace(const std::string& path, const std::string& format, const std::vector<traces::TraceRecord>& records) {
  auto w = traces::create_trace_writer(path, format);
  for (const auto& r : records) w->write(r);
  w->close();
}

}  // namespace trace_test
