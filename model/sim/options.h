#pragma once
// One key space for configuration: the same dotted names on the command line
// (`--nand.channels=10`) and in INI files (`[nand]` `channels = 10`), loaded
// with `--config FILE` (repeatable). Sources apply in command-line order, so
// later files and options override earlier ones. Every value is checked once
// here; an error names where the value came from (file and line, or the
// command line), the key, and the problem.

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/sim/config.h"

namespace ssd {

// Bad input: a one-line message; the CLI prints it and exits with 2.
struct OptionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string key;
  std::string fallback;  // default value, as a user would write it
  std::string unit;      // shown in --help
  std::string help;
};
// Every option: the core table and the options of the registered FTLs.
std::vector<OptionSpec> option_specs();
// The core table alone (what does not depend on the FTL plug-ins).
const std::vector<OptionSpec>& core_option_specs();
// Keys a mistyped or fio-style `name` may have meant, for an error's
// "did you mean" hint (at most three, best first): keys whose last part
// is name's (fio's `rw` is `workload.rw`; `dram.channels` is
// `nand.channels`), else keys that begin with name (a cut-short key),
// else keys one or two letters off (`nand.chanels`). None if nothing is close.
std::vector<std::string> similar_keys(const std::string& name);
// " (did you mean '--a' or '--b'?)" for an unknown option `name` (its
// similar_keys written with `dash`: "--" on the command line, "" in a
// config file); empty if no key is close.
std::string did_you_mean(const std::string& name, const std::string& dash);

class Options {
 public:
  // Longest single device time (a NAND operation, a transfer, a firmware
  // step): far above any real part, far below SystemC's 64-bit picosecond
  // range, so a run of many such steps still fits.
  static constexpr double kMaxDeviceTime = 10.0;
  // Longest run-level time (runtime, trace windows, time-series interval).
  static constexpr double kMaxRunTime = 1e6;
  // Most outstanding requests the host keeps (beyond NCQ they wait in its queue).
  static constexpr uint32_t kMaxHostQueue = 1024;

  // Parse argv; throws OptionError.
  static Options parse(int argc, const char* const* argv);

  bool help() const { return help_; }
  bool version() const { return version_; }
  bool list_ftls() const { return list_ftls_; }
  bool kernel_speed() const { return kernel_speed_; }
  const SimConfig& config() const { return cfg_; }
  // Effective value of every key (for the report).
  std::map<std::string, std::string> values() const;
  // An error about `key` as the user set it: "FILE: line N: option 'key': what".
  OptionError error(const std::string& key, const std::string& what) const;

  static std::string help_text();
  // What --help ends with: the exit statuses and the examples.
  static std::string help_examples();

 private:
  struct Setting {
    std::string value;
    std::string origin;  // "command line" or "FILE: line N"
  };
  void set(const std::string& key, const std::string& value, const std::string& origin);
  // Whether the user set `key` (a --config file or the command line), rather
  // than leaving it at its built-in default; `key` must be a known option.
  bool given(const std::string& key) const { return settings_.at(key).origin != "default"; }
  void load_file(const std::string& path);
  void build();  // settings -> typed, validated SimConfig
  void build_ftl();                    // the selected FTL's own options (options_ftl.cpp)
  void build_hdd(SimConfig& c) const;  // device, hdd.* (options_hdd.cpp)
  void build_compression(SimConfig& c) const;  // controller.compression (options_compression.cpp)
  void build_raid(SimConfig& c) const;  // raid.* (options_hdd.cpp), after the geometry
  void build_replay(SimConfig& c) const;  // trace.* (options_trace.cpp)
  // Every output path names a file of its own, none an input's (options_output.cpp).
  void check_output_paths(const SimConfig& c) const;
  static void load_plugins(int argc, const char* const* argv);

  uint64_t count(const std::string& key, uint64_t min, uint64_t max) const;
  uint64_t size(const std::string& key, bool allow_zero = true) const;
  // A time in [1 ps, max_seconds] or 0: SystemC's clock is 64-bit picoseconds.
  sc_core::sc_time duration(const std::string& key, double max_seconds = kMaxDeviceTime) const;
  // Refuse `seconds` (derived from `key`, e.g. one cycle of a clock) outside
  // what the simulation can represent; `what` prefixes the message.
  void check_time(const std::string& key, double seconds, double max_seconds, const std::string& what) const;
  double rate(const std::string& key) const;
  double frequency(const std::string& key) const;
  double fraction(const std::string& key) const;
  double real(const std::string& key, double min, double max) const;
  // Parse `text` (the value of `key`, or part of it) as a number in [min, max].
  double number(const std::string& key, const std::string& text, double min, double max) const;
  bool flag(const std::string& key) const;
  const std::string& choice(const std::string& key, const std::vector<std::string>& allowed) const;
  const std::string& text(const std::string& key) const { return settings_.at(key).value; }

  std::map<std::string, Setting> settings_;
  std::vector<std::string> config_files_;  // --config FILEs, in the order read
  SimConfig cfg_;
  bool help_ = false, version_ = false, list_ftls_ = false, kernel_speed_ = false;
};

}  // namespace ssd
