#pragma once
// Golden-value timing regression tests for GoogleTest, in one line each:
//
//   #include "testing/golden.h"
//   SSDSIM_GOLDEN_TEST(X25mRandRead,
//                      {"--config", "configs/drives/intel-x25m-g1.ini", "--workload.rw=randread",
//                       "--workload.number_ios=4000"},
//                      "read.iops", 0.02);
//
// runs the ssdsim binary with those arguments and `--report`, reads the
// metric ("read.iops", a dotted path into the JSON report, or a JSON pointer
// "/read/lat_ns/percentile/99.000000"; several: {"read.iops", "read.lat_ns.mean"})
// and checks it is within the relative tolerance (0.02: +-2 %) of the golden
// value in NAME.golden.json, next to the test's source file. A golden value
// of exactly 0 must be matched exactly.
//
// The golden file also records the arguments: a test whose arguments changed
// fails until its golden value is recorded again. Recording: run the test
// with SSDSIM_UPDATE_GOLDEN=1 (scripts/update-golden does it for every
// golden test and prints what moved); it rewrites the file and passes. A
// missing file or metric fails and says so.
//
// Compile-time settings (linking ssdsim::golden sets the first):
//   SSDSIM_GOLDEN_BIN   the ssdsim binary (the environment variable SSDSIM_BIN overrides it)
//   SSDSIM_GOLDEN_ROOT  directory the simulator runs in, so relative paths in
//                       the arguments resolve against it (default: the test's
//                       working directory)
// Environment: SSDSIM_UPDATE_GOLDEN=1 (record), SSDSIM_GOLDEN_LOG=FILE (update
// mode appends "NAME METRIC OLD NEW CHANGE" lines to FILE), SSDSIM_GOLDEN_EXACT=1
// (no tolerance: a value that moved at all fails; a move within the
// tolerance otherwise passes with a line saying how far it moved).
//
// Each test runs the simulator in a process of its own, so tests are
// independent and may run in parallel (ctest -j).

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ssdsim::golden {

// Where the test is: failures point at its SSDSIM_GOLDEN_TEST line.
struct Where {
  const char* file;
  int line;
};
#define SSDSIM_GOLDEN_FAIL_(where) ADD_FAILURE_AT((where).file, (where).line)

// One metric or a list of them.
struct Metrics {
  std::vector<std::string> names;
  Metrics(const char* m) : names{m} {}  // NOLINT: implicit by design
  Metrics(std::initializer_list<const char*> ms) : names(ms.begin(), ms.end()) {}
};

namespace detail {

inline std::string quote(const std::string& s) {  // for /bin/sh
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string binary() {
  if (const char* b = std::getenv("SSDSIM_BIN"); b && *b) return b;
#ifdef SSDSIM_GOLDEN_BIN
  return SSDSIM_GOLDEN_BIN;
#else
  return "";
#endif
}

inline std::string root() {
#ifdef SSDSIM_GOLDEN_ROOT
  return SSDSIM_GOLDEN_ROOT;
#else
  return "";
#endif
}

inline std::string dir_of(const std::string& file) {
  const size_t slash = file.find_last_of('/');
  return slash == std::string::npos ? "." : file.substr(0, slash);
}

inline bool update_mode() {
  const char* u = std::getenv("SSDSIM_UPDATE_GOLDEN");
  return u && *u && std::string(u) != "0";
}

// SSDSIM_GOLDEN_EXACT=1: every value must be the golden one exactly (a
// change meant to leave results bit-identical, e.g. a speed-up, checks that
// none moved even within the tolerance).
inline bool exact_mode() {
  const char* e = std::getenv("SSDSIM_GOLDEN_EXACT");
  return e && *e && std::string(e) != "0";
}

// `path` in `report`: a JSON pointer ("/a/b") or dots ("a.b"); a key may
// itself contain dots ("read.lat_ns.percentile.99.000000").
inline const nlohmann::json* lookup(const nlohmann::json& node, const std::string& path) {
  if (!path.empty() && path[0] == '/') {
    const nlohmann::json::json_pointer p(path);
    return node.contains(p) ? &node.at(p) : nullptr;
  }
  if (path.empty()) return &node;
  if (!node.is_object()) return nullptr;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string& k = it.key();
    if (path == k) return &it.value();
    if (path.size() > k.size() && path.compare(0, k.size(), k) == 0 && path[k.size()] == '.')
      if (const nlohmann::json* r = lookup(it.value(), path.substr(k.size() + 1))) return r;
  }
  return nullptr;
}

// Run the simulator; returns its report, or fails the test (empty result).
inline bool simulate(const Where& at, const std::string& name, const std::vector<std::string>& args,
                     nlohmann::json& report) {
  const std::string bin = binary();
  if (bin.empty()) {
    SSDSIM_GOLDEN_FAIL_(at)
        << "no ssdsim binary: compile with SSDSIM_GOLDEN_BIN (link ssdsim::golden) or set SSDSIM_BIN";
    return false;
  }
  const std::string out = testing::TempDir() + "ssdsim-golden-" + name + "-" + std::to_string(getpid()) + ".json";
  std::string cmd;
  if (!root().empty()) cmd = "cd " + quote(root()) + " && ";
  cmd += quote(bin);
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " --report " + quote(out) + " 2>&1";
  std::string output;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    SSDSIM_GOLDEN_FAIL_(at) << "cannot run: " << cmd;
    return false;
  }
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) output.append(buf, n);
  const int status = pclose(p);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    SSDSIM_GOLDEN_FAIL_(at) << "ssdsim failed ("
                            << (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status)) : "killed")
                            << "): " << cmd << "\n"
                            << output;
    std::remove(out.c_str());
    return false;
  }
  std::ifstream in(out);
  try {
    in >> report;
  } catch (const std::exception& e) {
    SSDSIM_GOLDEN_FAIL_(at) << out << ": cannot read the report: " << e.what();
    report = nullptr;
  }
  std::remove(out.c_str());
  return !report.is_null();
}

// The golden value of `metric` in a golden file, if it has a number for it.
inline const nlohmann::json* recorded(const nlohmann::json& golden, const std::string& metric) {
  const auto ms = golden.find("metrics");
  if (ms == golden.end() || !ms->is_object()) return nullptr;
  const auto v = ms->find(metric);
  return v != ms->end() && v->is_number() ? &*v : nullptr;
}

// What to do when a golden value is missing or moved on purpose.
constexpr const char* kHowToUpdate = "record it with SSDSIM_UPDATE_GOLDEN=1 (in ssdsim: scripts/update-golden)";

inline std::string change(double was, double now) {
  std::ostringstream s;
  if (was == now)
    s << "unchanged";
  else if (was == 0)
    s << "new-nonzero";
  else
    s << std::showpos << std::fixed << std::setprecision(3) << (now - was) / std::fabs(was) * 100 << "%";
  return s.str();
}

}  // namespace detail

// The body of SSDSIM_GOLDEN_TEST.
inline void check(const std::string& name, const Where& at, const std::vector<std::string>& args,
                  const Metrics& metrics, double tolerance) {
  const std::string file = detail::dir_of(at.file) + "/" + name + ".golden.json";
  nlohmann::json report;
  if (!detail::simulate(at, name, args, report)) return;

  nlohmann::json golden;
  bool have_file = false;
  if (std::ifstream in(file); in) {
    try {
      in >> golden;
      have_file = golden.is_object();
    } catch (const std::exception& e) {
      if (!detail::update_mode()) {
        SSDSIM_GOLDEN_FAIL_(at) << file << ": not valid JSON (" << e.what() << "); " << detail::kHowToUpdate;
        return;
      }
    }
  }

  if (detail::update_mode()) {
    nlohmann::json fresh{{"args", args}, {"metrics", nlohmann::json::object()}};
    std::ostringstream log;
    for (const auto& m : metrics.names) {
      const nlohmann::json* v = detail::lookup(report, m);
      if (!v || !v->is_number()) {
        SSDSIM_GOLDEN_FAIL_(at) << "metric '" << m << "' is not a number in the report";
        return;
      }
      fresh["metrics"][m] = *v;
      const nlohmann::json* old = have_file ? detail::recorded(golden, m) : nullptr;
      const double now = v->get<double>();
      log << name << " " << m << " " << (old ? old->dump() : "-") << " " << v->dump() << " "
          << (old ? detail::change(old->get<double>(), now) : "new") << "\n";
    }
    std::ofstream out(file);
    out << fresh.dump(2) << "\n";
    if (!out.flush()) SSDSIM_GOLDEN_FAIL_(at) << file << ": cannot write";
    std::printf("%s", log.str().c_str());
    if (const char* l = std::getenv("SSDSIM_GOLDEN_LOG"); l && *l) std::ofstream(l, std::ios::app) << log.str();
    return;
  }

  if (!have_file) {
    SSDSIM_GOLDEN_FAIL_(at) << "no golden values: " << file << " is missing; " << detail::kHowToUpdate;
    return;
  }
  if (golden.value("args", nlohmann::json()) != nlohmann::json(args)) {
    SSDSIM_GOLDEN_FAIL_(at) << file
                            << " was recorded with other arguments: " << golden.value("args", nlohmann::json()).dump()
                            << "; if the change is intended, " << detail::kHowToUpdate;
    return;
  }
  for (const auto& m : metrics.names) {
    const nlohmann::json* v = detail::lookup(report, m);
    if (!v || !v->is_number()) {
      SSDSIM_GOLDEN_FAIL_(at) << "metric '" << m << "' is not a number in the report";
      continue;
    }
    const nlohmann::json* g = detail::recorded(golden, m);
    if (!g) {
      SSDSIM_GOLDEN_FAIL_(at) << file << " has no golden value of '" << m << "'; " << detail::kHowToUpdate;
      continue;
    }
    const double want = g->get<double>(), got = v->get<double>();
    const double allowed = detail::exact_mode() ? 0.0 : tolerance;
    if (std::fabs(got - want) > allowed * std::fabs(want))
      SSDSIM_GOLDEN_FAIL_(at) << name << ": " << m << " = " << v->dump() << ", golden " << g->dump() << " ("
                              << detail::change(want, got) << ", tolerance " << allowed * 100 << "%)"
                              << "; if the change is intended, " << detail::kHowToUpdate;
    else if (got != want)  // (passes, but says so: a drift within the tolerance is still a change)
      std::printf("%s: %s moved %s from its golden value (within the %g%% tolerance)\n", name.c_str(), m.c_str(),
                  detail::change(want, got).c_str(), tolerance * 100);
  }
}

}  // namespace ssdsim::golden

// SSDSIM_GOLDEN_TEST(NAME, {ARGS...}, METRIC or {METRICS...}, TOLERANCE): a
// GoogleTest case Golden.NAME. Variadic because the braced lists hold commas.
#define SSDSIM_GOLDEN_TEST(NAME, ...) \
  TEST(Golden, NAME) { ::ssdsim::golden::check(#NAME, ::ssdsim::golden::Where{__FILE__, __LINE__}, __VA_ARGS__); }
