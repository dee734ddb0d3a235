#include "model/host/fio_job.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "model/sim/options.h"
#include "model/sim/text.h"
#include "tlm/ssd_protocol.h"

namespace ssd {

uint64_t FioJob::min_bs() const {
  uint64_t m = UINT64_MAX;
  for (const FioBlockSize& b : bs) m = std::min(m, b.bytes);
  return m;
}

namespace {

// Supported options and what each does here (also the --help text).
struct Supported {
  const char* name;
  const char* meaning;
};
const std::vector<Supported>& supported() {
  // clang-format off
  static const std::vector<Supported> s{
    {"name",                "job name (default: the section name)"},
    {"description",         "recorded in the job options"},
    {"rw",                  "read, write, trim, randread, randwrite, randtrim, rw/readwrite, randrw (alias readwrite)"},
    {"bs",                  "block size (alias blocksize); one value for all directions"},
    {"bssplit",             "block size mix, e.g. 4k/50:64k/50 (one list for all directions); over bs, as fio, in either order"},
    {"iodepth",             "outstanding IOs of the job; all jobs together at most 1024, beyond sata.ncq_depth they wait in the host queue"},
    {"numjobs",             "clones of the job, each reported as a job of its own"},
    {"rwmixread",           "percent reads of mixed workloads (rwmixwrite = 100 - rwmixread)"},
    {"rwmixwrite",          "percent writes of mixed workloads"},
    {"percentage_random",   "random share of rand* workloads; the rest continues sequentially"},
    {"random_distribution", "random (uniform), zipf:theta, pareto:h, normal:sigma (sigma in % of the span)"},
    {"size",                "LBA span from offset (bytes, or N% of the user capacity); default: to the end"},
    {"offset",              "start of the span (bytes or N%)"},
    {"io_size",             "bytes to transfer (alias io_limit); default: size; ignored with time_based"},
    {"number_ios",          "stop after this many reads/writes/trims"},
    {"runtime",             "stop issuing after this much simulated time past ramp_time (alias timeout)"},
    {"time_based",          "run for runtime even when io_size is done"},
    {"ramp_time",           "IOs completing before this simulated time are not in the job's statistics"},
    {"rate_iops",           "open-loop arrivals at this rate (one value for all directions)"},
    {"thinktime",           "a slot waits this long after each completion before its next IO (us by default)"},
    {"fsync",               "a FLUSH CACHE after every N writes"},
    {"randseed",            "seed of the job's random generator"},
    {"buffer_compress_percentage", "how much the data compresses (the same in every job; at most 90); matters with controller.compression"},
    {"filename",            "recorded only: the target is always the simulated drive"},
    {"ioengine",            "accepted, no effect: the host is an AHCI adapter with NCQ"},
    {"direct",              "accepted, no effect: there is no page cache"},
    {"group_reporting",     "accepted, no effect: every job is reported on its own"},
    {"norandommap",         "accepted, no effect: random offsets are always drawn with replacement"},
    {"iopsavgtime",         "interval of the IOPS samples behind iops_mean/iops_stddev (ms by default; 500ms)"},
    {"bwavgtime",           "interval of the bandwidth samples behind bw_mean/bw_dev (ms by default; 500ms)"},
  };
  // clang-format on
  return s;
}

const std::map<std::string, std::string>& aliases() {
  static const std::map<std::string, std::string> a{{"readwrite", "rw"}, {"blocksize", "bs"}, {"timeout", "runtime"},
                                                    {"io_limit", "io_size"}};
  return a;
}

// Common fio options that ssdsim does not support (to tell them from typos).
const std::set<std::string>& known_unsupported() {
  static const std::set<std::string> k{
      "allow_file_create", "allrandrepeat", "atomic", "blockalign", "ba", "bs_is_seq_rand", "bs_unaligned",
      "blocksize_range", "bsrange", "blocksize_unaligned", "buffer_compress_chunk", "buffer_pattern", "cgroup",
      "clat_percentiles", "cmdprio_percentage", "continue_on_error", "cpus_allowed", "cpumask", "create_on_open",
      "dedupe_percentage", "directory", "disable_bw_measurement", "disable_clat", "disable_lat", "disable_slat",
      "do_verify", "end_fsync", "end_syncfs", "exec_postrun", "exec_prerun", "exitall", "fdatasync", "file_service_type",
      "filesize", "fill_device", "fill_fs", "fixedbufs", "flow", "fsync_on_close", "gtod_reduce", "hipri",
      "ignore_error", "invalidate", "iodepth_batch", "iodepth_batch_complete", "iodepth_batch_complete_max",
      "iodepth_batch_complete_min", "iodepth_batch_submit", "iodepth_low", "iolog", "iomem", "ioscheduler",
      "kb_base", "lat_percentiles", "latency_percentile", "latency_target", "latency_window", "lockmem",
      "log_avg_msec", "log_offset", "loops", "max_latency", "mem", "new_group", "nice", "nrfiles", "numa_cpu_nodes",
      "offset_align", "offset_increment", "openfiles", "overwrite", "percentile_list", "per_job_logs", "pre_read",
      "prio", "prioclass", "ramp_size", "random_generator", "randrepeat", "rate", "rate_cycle", "rate_iops_min",
      "rate_min", "rate_process", "read_iolog", "refill_buffers", "registerfiles", "replay_no_stall", "rw_sequencer",
      "scramble_buffers", "serialize_overlap", "slat_percentiles", "sqthread_poll", "startdelay", "stats",
      "steadystate", "stonewall", "sync", "sync_file_range", "thinktime_blocks", "thinktime_iotime",
      "thinktime_spin", "thread", "trim_backlog", "trim_percentage", "unified_rw_reporting", "unit_base", "unlink",
      "verify", "verify_fatal", "verify_pattern", "wait_for_previous", "write_bw_log", "write_hist_log",
      "write_iolog", "write_iops_log", "write_lat_log", "zero_buffers", "zonemode", "zonerange", "zonesize",
      "zoneskip", "dedupe_mode", "io_submit_mode", "uid", "gid", "exitall_on_error"};
  return k;
}

using text::edit_distance;
using text::trim;

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Parses one value of one option; every error names the file, line and option.
class ValueParser {
 public:
  ValueParser(const std::string& path, int line, const std::string& key, uint64_t capacity)
      : path_(path), line_(line), key_(key), capacity_(capacity) {}

  OptionError error(const std::string& what) const {
    return OptionError(path_ + ": line " + std::to_string(line_) + ": option '" + key_ + "': " + what);
  }

  double number(const std::string& t, double min, double max) const {
    double v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || p != t.data() + t.size() || !std::isfinite(v))
      throw error("not a number: '" + t + "'");
    if (v < min || v > max)
      throw error("'" + t + "' is out of range [" + fmt(min) + ", " + fmt(max) + "]");
    return v;
  }
  uint64_t whole(const std::string& t, uint64_t min, uint64_t max) const {
    uint64_t v = 0;
    if (!t.empty() && t[0] == '-') throw error("negative value '" + t + "'");
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || p != t.data() + t.size()) throw error("not a whole number: '" + t + "'");
    if (v < min || v > max) throw error("'" + t + "' is out of range [" + fmt(min) + ", " + fmt(max) + "]");
    return v;
  }
  uint32_t percent(std::string t) const {
    if (!t.empty() && t.back() == '%') t.pop_back();
    return uint32_t(whole(t, 0, 100));
  }
  // fio sizes: bytes without a suffix; k/m/g/t/p (KB, KiB, ...) are powers of 1024.
  uint64_t size(const std::string& t, bool allow_percent) const {
    if (allow_percent && !t.empty() && t.back() == '%') {
      const double pct = number(t.substr(0, t.size() - 1), 0, 100);
      return uint64_t(double(capacity_) * pct / 100.0) / 512 * 512;
    }
    size_t n = 0;
    while (n < t.size() && (std::isdigit(static_cast<unsigned char>(t[n])) || t[n] == '.')) ++n;
    if (n == 0) throw error(t.empty() || t[0] != '-' ? "not a size: '" + t + "'" : "negative value '" + t + "'");
    const double v = number(t.substr(0, n), 0, 1e300);
    const std::string unit = lower(t.substr(n));
    static const std::map<std::string, int> shift{
        {"", 0},   {"b", 0},   {"k", 10},  {"kb", 10}, {"kib", 10}, {"m", 20}, {"mb", 20}, {"mib", 20}, {"g", 30},
        {"gb", 30}, {"gib", 30}, {"t", 40}, {"tb", 40}, {"tib", 40}, {"p", 50}, {"pb", 50}, {"pib", 50}};
    const auto it = shift.find(unit);
    if (it == shift.end()) throw error("unknown size unit in '" + t + "' (k, m, g, t, p: powers of 1024)");
    const double bytes = v * std::ldexp(1.0, it->second);
    if (bytes >= 1.8e19 || bytes != std::floor(bytes)) throw error("'" + t + "' is not a whole number of bytes");
    return uint64_t(bytes);
  }
  // fio times: `unit` is the multiplier (in seconds) of a value without a suffix.
  sc_core::sc_time time(const std::string& t, double unit) const {
    size_t n = 0;
    while (n < t.size() && (std::isdigit(static_cast<unsigned char>(t[n])) || t[n] == '.')) ++n;
    if (n == 0) throw error(t.empty() || t[0] != '-' ? "not a time: '" + t + "'" : "negative value '" + t + "'");
    const double v = number(t.substr(0, n), 0, 1e12);
    static const std::map<std::string, double> scale{
        {"ns", 1e-9}, {"nsec", 1e-9}, {"us", 1e-6}, {"usec", 1e-6}, {"ms", 1e-3}, {"msec", 1e-3}, {"s", 1},
        {"sec", 1},   {"m", 60},      {"min", 60},  {"h", 3600},    {"d", 86400}};
    const std::string suffix = lower(t.substr(n));
    double s = unit;
    if (!suffix.empty()) {
      const auto it = scale.find(suffix);
      if (it == scale.end()) throw error("unknown time unit in '" + t + "' (us, ms, s, m, h, d)");
      s = it->second;
    }
    // SystemC counts picoseconds in 64 bits: keep well inside (11.5 simulated days).
    if (v * s > 1e6) throw error("'" + t + "' is longer than the 1000000 s ssdsim can simulate");
    return sc_core::sc_time(v * s, sc_core::SC_SEC);
  }
  bool flag(const std::string& t) const {
    if (t.empty() || t == "1" || t == "true") return true;
    if (t == "0" || t == "false") return false;
    throw error("expected 0 or 1, got '" + t + "'");
  }
 private:
  static std::string fmt(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.15g", v);
    return b;
  }
  const std::string& path_;
  int line_;
  std::string key_;
  uint64_t capacity_;
};

// Line of each effective option of a job, for errors found after parsing.
using Lines = std::map<std::string, int>;

void apply(FioJob& j, const std::string& key, const std::string& v, const ValueParser& p, Lines& where, int line) {
  where[key] = line;
  if (key == "name") {
    if (v.empty()) throw p.error("needs a value");
    j.name = v;
  } else if (key == "description" || key == "filename") {
    if (key == "filename") j.filename = v;
  } else if (key == "rw") {
    static const std::set<std::string> kinds{"read", "write", "trim", "randread", "randwrite", "randtrim",
                                             "rw", "readwrite", "randrw"};
    if (v.find(':') != std::string::npos) throw p.error("the ':N' suffix of rw is not supported");
    if (!kinds.count(v))
      throw p.error("'" + v + "' is not supported (read, write, trim, randread, randwrite, randtrim, rw, readwrite, randrw)");
    j.rw = v;
  } else if (key == "bs") {
    if (v.find(',') != std::string::npos) throw p.error("per-direction block sizes are not supported; give one size");
    if (v.find('-') != std::string::npos) throw p.error("block size ranges are not supported; use bssplit");
    // As fio, a job's bssplit decides its sizes wherever its bs comes (a
    // [global] bs before or after it): bs is checked, not applied.
    const FioBlockSize b{p.size(v, false), 100};
    if (!where.count("bssplit")) j.bs = {b};
  } else if (key == "bssplit") {
    if (v.find(',') != std::string::npos) throw p.error("per-direction bssplit is not supported; give one list");
    std::vector<FioBlockSize> list;
    uint32_t total = 0, unset = 0;
    size_t pos = 0;
    while (pos <= v.size()) {
      const size_t colon = std::min(v.find(':', pos), v.size());
      const std::string item = v.substr(pos, colon - pos);
      const size_t slash = item.find('/');
      FioBlockSize b;
      b.bytes = p.size(item.substr(0, slash), false);
      b.percent = slash == std::string::npos || slash + 1 == item.size() ? 0 : p.percent(item.substr(slash + 1));
      if (b.percent == 0) ++unset;
      total += b.percent;
      list.push_back(b);
      pos = colon + 1;
    }
    if (total > 100) throw p.error("percentages add up to " + std::to_string(total) + ", more than 100");
    // As fio: entries without a percentage share what the others leave.
    if (unset) {
      const uint32_t share = (100 - total) / unset;
      uint32_t left = 100 - total - share * unset;
      for (auto& b : list)
        if (b.percent == 0) b.percent = share + (left ? (--left, 1) : 0);
    } else if (total != 100) {
      throw p.error("percentages add up to " + std::to_string(total) + ", not 100");
    }
    j.bs = list;
  } else if (key == "iodepth") {
    j.iodepth = uint32_t(p.whole(v, 1, 1u << 16));
  } else if (key == "numjobs") {
    j.numjobs = uint32_t(p.whole(v, 1, 1u << 16));
  } else if (key == "rwmixread") {
    j.rwmixread = p.percent(v);
  } else if (key == "rwmixwrite") {
    j.rwmixread = 100 - p.percent(v);
  } else if (key == "percentage_random") {
    if (v.find(',') != std::string::npos) throw p.error("per-direction values are not supported; give one");
    j.percentage_random = p.percent(v);
  } else if (key == "random_distribution") {
    const size_t colon = v.find(':');
    const std::string kind = v.substr(0, colon);
    const std::string arg = colon == std::string::npos ? "" : v.substr(colon + 1);
    if (arg.find(':') != std::string::npos || v.find(',') != std::string::npos)
      throw p.error("a centre or per-direction values are not supported: '" + v + "'");
    if (kind == "random") {
      if (!arg.empty()) throw p.error("random takes no parameter");
      j.distribution = FioDistribution::Random;
    } else if (kind == "zipf") {
      j.distribution = FioDistribution::Zipf;
      j.distribution_param = p.number(arg, 0, 1e3);
      if (j.distribution_param <= 0 || j.distribution_param == 1.0) throw p.error("zipf theta must be > 0 and not 1");
    } else if (kind == "pareto") {
      j.distribution = FioDistribution::Pareto;
      j.distribution_param = p.number(arg, 0, 1);
      if (j.distribution_param <= 0 || j.distribution_param >= 1) throw p.error("pareto h must be in (0, 1)");
    } else if (kind == "normal") {
      j.distribution = FioDistribution::Normal;
      j.distribution_param = p.number(arg, 0, 100);
      if (j.distribution_param <= 0) throw p.error("normal sigma must be in (0, 100] percent of the span");
    } else {
      throw p.error("'" + kind + "' is not supported (random, zipf:theta, pareto:h, normal:sigma)");
    }
  } else if (key == "size") {
    j.size = p.size(v, true);
    if (j.size == 0) throw p.error("must be greater than zero");
  } else if (key == "offset") {
    j.offset = p.size(v, true);
  } else if (key == "io_size") {
    j.io_size = p.size(v, true);
  } else if (key == "number_ios") {
    j.number_ios = p.whole(v, 0, UINT64_MAX);
  } else if (key == "runtime") {
    j.runtime = p.time(v, 1);
  } else if (key == "time_based") {
    j.time_based = p.flag(v);
  } else if (key == "ramp_time") {
    j.ramp_time = p.time(v, 1);
  } else if (key == "rate_iops") {
    if (v.find(',') != std::string::npos) throw p.error("per-direction rates are not supported; give one rate");
    j.rate_iops = double(p.whole(v, 0, 1000000000));
  } else if (key == "thinktime") {
    j.thinktime = p.time(v, 1e-6);
  } else if (key == "fsync") {
    j.fsync = uint32_t(p.whole(v, 0, UINT32_MAX));
  } else if (key == "randseed") {
    j.randseed = p.whole(v, 0, UINT64_MAX);
  } else if (key == "buffer_compress_percentage") {
    j.buffer_compress_percentage = p.percent(v);
  } else if (key == "ioengine") {
    if (v.empty()) throw p.error("needs a value");
  } else if (key == "direct" || key == "group_reporting" || key == "norandommap") {
    p.flag(v);
  } else if (key == "iopsavgtime" || key == "bwavgtime") {
    const sc_core::sc_time t = p.time(v, 1e-3);
    if (t < sc_core::sc_time(1, sc_core::SC_US)) throw p.error("must be at least 1us");
    (key == "iopsavgtime" ? j.iopsavgtime : j.bwavgtime) = t;
  }
}

void check_job(const FioJob& j, const std::string& path, int section_line, const Lines& where, uint64_t capacity) {
  auto err = [&](const std::string& key, const std::string& what) {
    const auto it = where.find(key);
    return OptionError(path + ": line " + std::to_string(it == where.end() ? section_line : it->second) +
                       ": option '" + key + "': " + what + " (job '" + j.name + "')");
  };
  for (const FioBlockSize& b : j.bs)
    if (b.bytes == 0 || b.bytes % 512 != 0)
      throw err(where.count("bssplit") ? "bssplit" : "bs", "block size " + std::to_string(b.bytes) +
                                                              " is not a positive multiple of 512 bytes");
  if (j.offset % 512 != 0) throw err("offset", "must be a multiple of 512 bytes");
  if (j.offset >= capacity)
    throw err("offset", std::to_string(j.offset) + " is beyond the drive's user capacity of " +
                            std::to_string(capacity) + " bytes");
  const uint64_t span = j.size ? j.size : capacity - j.offset;
  if (j.offset + span > capacity)
    throw err("size", "span ends at byte " + std::to_string(j.offset + span) +
                          ", beyond the drive's user capacity of " + std::to_string(capacity) + " bytes");
  uint64_t max_bs = 0;
  for (const FioBlockSize& b : j.bs) max_bs = std::max(max_bs, b.bytes);
  if (max_bs > span) throw err(where.count("bssplit") ? "bssplit" : "bs", "larger than the span (size)");
  if (max_bs > ssdtlm::kMaxCommandBytes && j.rw != "trim" && j.rw != "randtrim")
    throw err(where.count("bssplit") ? "bssplit" : "bs",
              "block size " + std::to_string(max_bs) + " " + ssdtlm::kMaxCommandRefusal);
  if (j.time_based && j.runtime == sc_core::SC_ZERO_TIME) throw err("time_based", "needs a runtime");
}

}  // namespace

FioJobFile parse_fio_job_file(const std::string& path, uint64_t capacity) {
  std::string content;
  if (const std::string why = text::read_user_file(path, "job file", content); !why.empty())
    throw OptionError(path + ": " + why + " (option '--job')");
  std::istringstream in(content);
  FioJobFile file;
  file.path = path;
  struct Pending {
    FioJob job;
    int line = 0;
    Lines where;
  };
  FioOptionList global;                      // [global] options so far, applied to later jobs
  std::vector<int> global_lines;             // ... and their lines
  std::vector<Pending> jobs;
  bool in_global = false, in_section = false;
  int section_line = 0;  // the current section's header
  // The section's own options so far (by canonical name, so an alias
  // counts): one given twice in a section is a mistake, as its later value
  // would silently replace the earlier. (A job's option over a [global]
  // one, or a later [global] section's over an earlier one, is by design.)
  std::map<std::string, int> section_keys;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    line = trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    // A binary file (a device, an image named by mistake) stops here, and
    // no message below echoes bytes that would garble the terminal.
    if (std::any_of(line.begin(), line.end(), [](unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; }))
      throw OptionError(path + ": line " + std::to_string(n) + ": not a text line: '" + text::printable(line) + "'");
    if (line.front() == '[') {
      if (line.back() != ']') throw OptionError(path + ": line " + std::to_string(n) + ": unterminated section '" + line + "'");
      const std::string name = trim(line.substr(1, line.size() - 2));
      if (name.empty()) throw OptionError(path + ": line " + std::to_string(n) + ": empty section name");
      in_section = true;
      in_global = name == "global";
      section_line = n;
      section_keys.clear();
      if (!in_global) {
        Pending p;
        p.job.name = name;
        p.line = n;
        // The [global] options so far, then the job's own.
        for (size_t i = 0; i < global.size(); ++i) {
          const auto& [k, v] = global[i];
          apply(p.job, k, v, ValueParser(path, global_lines[i], k, capacity), p.where, global_lines[i]);
        }
        jobs.push_back(std::move(p));
      }
      continue;
    }
    const size_t eq = line.find('=');
    std::string key = trim(line.substr(0, eq)), value = eq == std::string::npos ? "" : trim(line.substr(eq + 1));
    const std::string where = path + ": line " + std::to_string(n) + ": ";
    if (!in_section) throw OptionError(where + "option '" + key + "' outside a [section]");
    if (key.find_first_of("$") != std::string::npos || value.find("${") != std::string::npos)
      throw OptionError(where + "option '" + key + "': environment variables are not supported");
    if (key == "include") throw OptionError(where + "'include' is not supported by ssdsim");
    const std::string written = key;
    if (aliases().count(key)) key = aliases().at(key);
    bool ok = false;
    for (const Supported& s : supported()) ok = ok || key == s.name;
    if (!ok) {
      if (known_unsupported().count(key))
        throw OptionError(where + "fio option '" + key + "' is not supported by ssdsim");
      std::string best;
      size_t best_d = SIZE_MAX;
      for (const Supported& s : supported())
        if (const size_t d = edit_distance(key, s.name); d < best_d) best_d = d, best = s.name;
      throw OptionError(where + "unknown fio option '" + text::printable(key) + "'" +
                        (best_d <= std::max<size_t>(2, key.size() / 3) ? " (did you mean '" + best + "'?)" : ""));
    }
    if (const auto [it, fresh] = section_keys.emplace(key, n); !fresh)
      throw OptionError(where + "option '" + written + "' again in this section (first on line " +
                        std::to_string(it->second) + "; fio would take the later one)");
    const ValueParser p(path, n, written, capacity);
    if (in_global) {
      FioJob scratch;  // check the value now, where the error points at [global]
      Lines w;
      apply(scratch, key, value, p, w, n);
      global.emplace_back(key, value);
      global_lines.push_back(n);
      file.global.emplace_back(written, value);
    } else {
      Pending& j = jobs.back();
      apply(j.job, key, value, p, j.where, n);
      j.job.options.emplace_back(written, value);
    }
  }
  if (jobs.empty()) throw OptionError(path + ": no job section (a [name] other than [global])");
  // fio applies a [global] section to the jobs after it: options in one
  // after the last job would apply to none.
  if (in_global && !section_keys.empty())
    throw OptionError(path + ": line " + std::to_string(section_line) +
                      ": a [global] section after the last job applies to no job (fio applies [global] to the "
                      "jobs that follow it)");
  uint64_t depth = 0;
  for (Pending& p : jobs) {
    check_job(p.job, path, p.line, p.where, capacity);
    depth += uint64_t(p.job.iodepth) * p.job.numjobs;
    // Beyond the drive's NCQ depth the requests wait in the host queue, as with fio.
    if (depth > 1024) {
      const char* key = p.where.count("numjobs") && p.job.numjobs > 1 ? "numjobs" : "iodepth";
      const auto it = p.where.find(key);
      throw OptionError(path + ": line " + std::to_string(it == p.where.end() ? p.line : it->second) +
                        ": option '" + key + "': the jobs' iodepth x numjobs add up to " + std::to_string(depth) +
                        " by job '" + p.job.name + "', above the host queue limit of 1024");
    }
    for (uint32_t c = 0; c < p.job.numjobs; ++c) {
      FioJob clone = p.job;
      clone.clone = c;
      file.jobs.push_back(std::move(clone));
    }
  }
  return file;
}

std::string fio_job_help() {
  std::string s =
      "fio job files (--job FILE): [global] and [job] sections; several jobs run concurrently on the drive.\n"
      "Sizes as fio (bytes without a suffix; k, m, g = powers of 1024; N% of the capacity for size/offset);\n"
      "times as fio (s by default; thinktime in us, iopsavgtime/bwavgtime in ms). Supported options:\n";
  for (const Supported& o : supported()) {
    std::string head = "  " + std::string(o.name);
    if (head.size() < 30) head.resize(30, ' ');
    s += head + " " + o.meaning + "\n";
  }
  return s;
}

}  // namespace ssd
