#include "model/sim/options.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "model/host/fio_job.h"
#include "model/ftl/ftl.h"
#include "model/sim/io_logs.h"
#include "model/sim/text.h"
#include "model/sim/units.h"
#include "tlm/ssd_protocol.h"
#include "traces/trace_reader.h"

namespace po = boost::program_options;

namespace ssd {

namespace {

po::options_description describe() {
  po::options_description d;
  d.add_options()("help,h", "")("version", "")("list-ftls", "")("kernel-speed", "")("config", po::value<std::vector<std::string>>(), "");
  for (const auto& s : option_specs()) {
    auto* v = po::value<std::string>();
    if (s.unit == "bool") v->implicit_value("true");
    d.add_options()(s.key.c_str(), v, s.help.c_str());
  }
  return d;
}

bool is_flag(const std::string& key) {
  for (const auto& s : option_specs())
    if (s.key == key) return s.unit == "bool";
  return false;
}

using text::printable;
using text::trim;

// The items of a comma-separated value (text::split: empty ones kept, so
// each item's check refuses them).
std::vector<std::string> comma_list(const std::string& s) { return text::split(s, ','); }

}  // namespace

Options Options::parse(int argc, const char* const* argv) {
  Options o;
  load_plugins(argc, argv);
  for (const auto& s : option_specs()) o.settings_[s.key] = {s.fallback, "default"};
  const po::options_description desc = describe();
  po::parsed_options parsed(&desc);
  try {
    // No prefix guessing: `--workload.number=10` must not silently mean
    // `--workload.number_ios` (a misspelt key is an error, not a guess).
    const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    parsed = po::command_line_parser(argc, argv).options(desc).style(style).run();
  } catch (const po::unknown_option& e) {
    // (Boost names the token as given: `--rw=randread`.)
    std::string name = e.get_option_name();
    name = name.substr(std::min(name.find_first_not_of('-'), name.size()));
    throw OptionError(std::string("command line: ") + printable(e.what()) +
                      did_you_mean(name.substr(0, name.find('=')), "--"));
  } catch (const po::error& e) {
    throw OptionError(std::string("command line: ") + e.what());
  }
  for (const auto& opt : parsed.options) {
    if (opt.position_key >= 0 || opt.string_key.empty()) {  // a bare word: never ignore it
      const std::string word = opt.original_tokens.empty() ? "" : printable(opt.original_tokens[0]);
      throw OptionError("command line: unexpected argument '" + word + "'" +
                        (word.size() > 4 && word.compare(word.size() - 4, 4, ".ini") == 0
                             ? " (a config file? use --config " + word + ")"
                             : " (options are --KEY=VALUE; config files need --config FILE)"));
    }
    if (opt.string_key == "help") o.help_ = true;
    else if (opt.string_key == "version") o.version_ = true;
    else if (opt.string_key == "list-ftls") o.list_ftls_ = true;
    else if (opt.string_key == "kernel-speed") o.kernel_speed_ = true;
    else if (opt.string_key == "config") o.load_file(opt.value.at(0)), o.config_files_.push_back(opt.value.at(0));
    else if (!opt.value.empty()) o.set(opt.string_key, opt.value[0], "command line");
    else if (is_flag(opt.string_key)) o.set(opt.string_key, "true", "command line");  // bare --flag
    else throw OptionError("command line: option '--" + opt.string_key + "' needs a value");
  }
  // --help, --version, --list-ftls and --kernel-speed each print something
  // and exit, so any other option beside one of them would be silently
  // ignored: refused instead. Only --ftl.plugin may go with --help and
  // --list-ftls (its options and FTLs are then listed too).
  std::vector<std::string> actions, others;
  for (const auto& opt : parsed.options) {
    const std::string& k = opt.string_key;
    if (k == "help" || k == "version" || k == "list-ftls" || k == "kernel-speed") actions.push_back("--" + k);
    else others.push_back("--" + k);
  }
  if (actions.size() > 1) throw OptionError("command line: " + actions[0] + " and " + actions[1] + ": give one of them");
  const bool lists_plugins = o.help_ || o.list_ftls_;
  for (const auto& other : others)
    if (!actions.empty() && !(lists_plugins && other == "--ftl.plugin"))
      throw OptionError("command line: " + actions[0] + " takes no other option (given: '" + printable(other) + "')");
  if (actions.empty()) o.build();
  return o;
}

void Options::set(const std::string& key, const std::string& value, const std::string& origin) {
  settings_[key] = {trim(value), origin};
}

void Options::load_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw OptionError(path + ": is a directory, not a config file");
  std::string content;
  if (const std::string why = text::read_user_file(path, "config file", content); !why.empty())
    throw OptionError(path + ": " + why);
  // Read here, line by line, rather than by program_options, whose rules
  // differ from an INI file's (';' starts no comment, '#' starts one even
  // inside a value) and whose errors carry no line: [section] headers,
  // key = value lines, comments from a '#' or ';' that starts a line or
  // follows a space. A key given twice in a file would silently replace
  // its earlier value (across files, and from the command line over a file,
  // the later one wins by design).
  std::map<std::string, int> line_of;
  std::istringstream in(content);
  std::string raw, section;
  for (int n = 1; std::getline(in, raw); ++n) {
    const std::string at = path + ": line " + std::to_string(n);
    size_t cut = raw.find_first_of("#;");
    while (cut != std::string::npos && cut > 0 && raw[cut - 1] != ' ' && raw[cut - 1] != '\t')
      cut = raw.find_first_of("#;", cut + 1);
    const std::string line = trim(raw.substr(0, cut));
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (line.back() != ']') throw OptionError(at + ": not a '[section]' line: '" + printable(line) + "'");
      section = trim(line.substr(1, line.size() - 2));  // ([] returns to dotted keys of no section)
      continue;
    }
    const size_t eq = line.find('=');
    const std::string name = eq == std::string::npos ? "" : trim(line.substr(0, eq));
    if (name.empty()) throw OptionError(at + ": not a 'key = value' line: '" + printable(line) + "'");
    const std::string key = section.empty() ? name : section + "." + name;
    if (const auto [it, fresh] = line_of.emplace(key, n); !fresh)
      throw OptionError(at + ": '" + printable(key) + "' again (first on line " + std::to_string(it->second) + ")");
    if (key == "config") throw OptionError(at + ": 'config' cannot be nested in a config file");
    if (key == "ftl.plugin")
      throw OptionError(at + ": 'ftl.plugin' is command line only (its options must be known before files are read)");
    if (!settings_.count(key)) {
      const std::string hint = did_you_mean(key, "");
      throw OptionError(at + ": unknown option '" + printable(key) + "'" + (hint.empty() ? " (see --help)" : hint));
    }
    set(key, trim(line.substr(eq + 1)), at);
  }
}

OptionError Options::error(const std::string& key, const std::string& what) const {
  const auto it = settings_.find(key);
  if (it == settings_.end() || it->second.origin == "default")  // the user never set it: say so
    return OptionError("configuration: option '" + key + "' (default " +
                       (it == settings_.end() ? "?" : it->second.value) + "): " + what);
  const std::string& origin = it->second.origin;
  const std::string name = origin == "command line" ? "--" + key : key;
  return OptionError(origin + ": option '" + name + "': " + what);
}

std::map<std::string, std::string> Options::values() const {
  std::map<std::string, std::string> v;
  for (const auto& [k, s] : settings_) v[k] = s.value;
  return v;
}

// ---- typed accessors: each names the key in its error

uint64_t Options::count(const std::string& key, uint64_t min, uint64_t max) const {
  const std::string& t = text(key);
  uint64_t v = 0;
  if (!t.empty() && t[0] == '-') throw error(key, "negative value '" + t + "'");
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  const bool huge = ec == std::errc::result_out_of_range && p == t.data() + t.size();  // digits beyond 64 bits
  if (!huge && (ec != std::errc() || p != t.data() + t.size())) throw error(key, "not a whole number: '" + t + "'");
  if (huge || v < min || v > max)
    throw error(key, "'" + t + "' is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

uint64_t Options::size(const std::string& key, bool allow_zero) const {
  const std::string& t = text(key);
  uint64_t v = 0;
  if (t != "0")  // zero needs no unit
    if (auto e = units::parse_size(t, v); !e.empty()) throw error(key, e);
  if (!allow_zero && v == 0) throw error(key, "must be greater than zero");
  return v;
}

sc_core::sc_time Options::duration(const std::string& key, double max_seconds) const {
  const std::string& t = text(key);
  double s = 0;
  if (t != "0")
    if (auto e = units::parse_seconds(t, s); !e.empty()) throw error(key, e);
  check_time(key, s, max_seconds, "");
  return sc_core::sc_time(s, sc_core::SC_SEC);
}

void Options::check_time(const std::string& key, double seconds, double max_seconds, const std::string& what) const {
  // SystemC counts whole picoseconds in 64 bits (about 1.8e7 s): a time below
  // 1 ps would round to nothing and one near the top would saturate sums.
  if (seconds > 0 && seconds < 1e-12)
    throw error(key, what + "below SystemC's 1 ps time resolution");
  if (seconds > max_seconds) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g s", max_seconds);
    throw error(key, what + "longer than the " + limit + " this option allows");
  }
}

double Options::rate(const std::string& key) const {
  double v;
  if (auto e = units::parse_rate(text(key), v); !e.empty()) throw error(key, e);
  return v;
}

double Options::frequency(const std::string& key) const {
  double v;
  if (auto e = units::parse_frequency(text(key), v); !e.empty()) throw error(key, e);
  return v;
}

double Options::real(const std::string& key, double min, double max) const {
  return number(key, text(key), min, max);
}

double Options::number(const std::string& key, const std::string& t, double min, double max) const {
  double v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size() || !std::isfinite(v)) throw error(key, "not a number: '" + t + "'");
  if (v < min || v > max) throw error(key, "'" + t + "' is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

double Options::fraction(const std::string& key) const {
  const std::string& t = text(key);
  if (!t.empty() && t.back() == '%') return number(key, t.substr(0, t.size() - 1), 0, 1000) / 100.0;
  return real(key, 0, 10);
}

bool Options::flag(const std::string& key) const {
  const std::string& t = text(key);
  if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
  if (t == "false" || t == "0" || t == "no" || t == "off") return false;
  throw error(key, "expected true or false, got '" + t + "'");
}

const std::string& Options::choice(const std::string& key, const std::vector<std::string>& allowed) const {
  const std::string& t = text(key);
  std::string list;
  for (const auto& a : allowed) {
    if (t == a) return t;
    list += (list.empty() ? "" : ", ") + a;
  }
  throw error(key, "'" + t + "' is not one of: " + list);
}

void Options::build() {
  SimConfig& c = cfg_;
  FlashGeometry& g = c.nand.geometry;
  g.channels = uint32_t(count("nand.channels", 1, 64));
  g.dies_per_channel = uint32_t(count("nand.dies_per_channel", 1, 64));
  g.planes_per_die = uint32_t(count("nand.planes_per_die", 1, 16));
  g.blocks_per_plane = uint32_t(count("nand.blocks_per_plane", 1, 1u << 20));
  g.pages_per_block = uint32_t(count("nand.pages_per_block", 1, 4096));
  const uint64_t page = size("nand.page_size", false);
  if (page % 512 != 0 || page > (1u << 20)) throw error("nand.page_size", "must be a multiple of 512 B, at most 1m");
  g.page_size = uint32_t(page);
  const uint64_t unit = size("controller.map_unit");
  if (unit && (unit % 512 != 0 || unit >= page || page % unit != 0))
    throw error("controller.map_unit", "must be a multiple of 512 B that divides nand.page_size (" +
                                           text("nand.page_size") + ") and is smaller");
  c.nand.map_unit = uint32_t(unit);
  if (g.pages() >= UINT32_MAX)
    throw error("nand.blocks_per_plane", "geometry gives " + std::to_string(g.pages()) +
                                             " flash pages; at most 2^32-1 are supported");
  c.nand.t_read = duration("nand.t_read");
  c.nand.t_prog = duration("nand.t_prog");
  c.nand.t_erase = duration("nand.t_erase");
  c.nand.channel_rate = rate("nand.channel_rate");
  check_time("nand.channel_rate", g.page_size / c.nand.channel_rate, kMaxDeviceTime, "one page transfer is ");
  const std::string page_types = choice("nand.page_types", {"uniform", "lsb-msb", "lsb-msb-abl"});
  c.nand.lsb_msb = page_types != "uniform";
  c.nand.all_bit_line = page_types == "lsb-msb-abl";
  c.nand.t_prog_lsb = duration("nand.t_prog_lsb");
  c.nand.t_prog_msb = duration("nand.t_prog_msb");
  c.nand.t_read_lsb = duration("nand.t_read_lsb");
  c.nand.t_read_msb = duration("nand.t_read_msb");
  if (!c.nand.lsb_msb)  // a time set for page types that are not in use would be silently ignored
    for (const char* k : {"nand.t_prog_lsb", "nand.t_prog_msb", "nand.t_read_lsb", "nand.t_read_msb"})
      if (text(k) != "0") throw error(k, "needs nand.page_types=lsb-msb or lsb-msb-abl");
  c.nand.partial_read = flag("nand.partial_read");
  c.nand.cache_program = flag("nand.cache_program");
  c.nand.cache_read = flag("nand.cache_read");
  c.serial_gc = flag("controller.serial_gc");
  c.trim = flag("controller.trim");
  c.nand.copyback = flag("nand.copyback");
  c.nand.suspend = flag("nand.suspend");
  c.nand.t_suspend = duration("nand.t_suspend");
  if (!c.nand.suspend && given("nand.t_suspend"))
    throw error("nand.t_suspend", "needs nand.suspend=true");
  c.nand.max_suspends = uint32_t(count("nand.max_suspends", 0, 1u << 20));
  if (!c.nand.suspend && c.nand.max_suspends != 0) throw error("nand.max_suspends", "needs nand.suspend=true");
  if (c.nand.suspend)
    for (const char* k : {"nand.cache_program", "nand.cache_read"})
      if (flag(k)) throw error(k, "is not modelled together with nand.suspend (the cache register's own schedule)");
  c.nand.multiplane = flag("nand.multiplane");
  // The FTL counts valid pages of a block in 16 bits.
  if (c.nand.multiplane && uint64_t(g.pages_per_block) * g.planes_per_die > 32768)
    throw error("nand.multiplane", "a multi-plane block of " + std::to_string(g.planes_per_die) + " planes x " +
                                       std::to_string(g.pages_per_block) + " pages is over 32768 pages");

  c.dram.size = size("dram.size");
  c.dram.bandwidth = rate("dram.bandwidth");
  c.dram.latency = duration("dram.latency");
  c.dram.write_cache = size("dram.write_cache");
  const uint64_t entry = size("dram.map_entry", false);
  if (entry > 64) throw error("dram.map_entry", "a mapping-table entry is at most 64B");
  c.dram.map_entry_bytes = uint32_t(entry);
  // The largest single DRAM access is one host command's data (bounded by
  // the user capacity below); a page is what every command moves at least.
  check_time("dram.bandwidth", c.nand.host_page() / c.dram.bandwidth, kMaxDeviceTime, "one page transfer is ");
  if (c.dram.write_cache > c.dram.size)
    throw error("dram.write_cache", "larger than dram.size (" + text("dram.size") + ")");
  c.sram_write_buffer = size("controller.sram_write_buffer");
  if (c.sram_write_buffer && c.dram.size)
    throw error("controller.sram_write_buffer",
                "is a DRAM-less controller's (dram.size=0); with DRAM, writes are buffered in dram.write_cache");
  if (c.sram_write_buffer > ftl::kControllerSramBytes)
    throw error("controller.sram_write_buffer", "is more than the controller's SRAM (" +
                                                    std::to_string(ftl::kControllerSramBytes) + " B)");
  // A write buffer, in DRAM or in SRAM, holds whole pages.
  for (const auto& [key, bytes] : {std::pair{"dram.write_cache", c.dram.write_cache},
                                   std::pair{"controller.sram_write_buffer", c.sram_write_buffer}})
    if (bytes && bytes < c.nand.host_page())
      throw error(key, "smaller than one page (" + std::to_string(c.nand.host_page()) + " B)");

  c.cpu.cores = uint32_t(count("cpu.cores", 1, 64));
  c.cpu.clock = frequency("cpu.clock");
  c.cpu.decode_cycles = count("cpu.cycles.decode", 0, 1u << 30);
  c.cpu.complete_cycles = count("cpu.cycles.complete", 0, 1u << 30);
  c.cpu.page_cycles = count("cpu.cycles.flash_op", 0, 1u << 30);
  c.cpu.ftl.lookup = count("cpu.cycles.ftl_lookup", 0, 1u << 30);
  c.cpu.ftl.map_update = count("cpu.cycles.map_update", 0, 1u << 30);
  c.cpu.ftl.gc_page = count("cpu.cycles.gc_page", 0, 1u << 30);
  c.cpu.ftl.gc_victim = count("cpu.cycles.gc_victim", 0, 1u << 30);
  check_time("cpu.clock", 1.0 / c.cpu.clock, kMaxDeviceTime, "one cycle is ");
  for (const char* k : {"cpu.cycles.decode", "cpu.cycles.complete", "cpu.cycles.flash_op", "cpu.cycles.ftl_lookup",
                        "cpu.cycles.map_update", "cpu.cycles.gc_page", "cpu.cycles.gc_victim"})
    check_time(k, double(count(k, 0, 1u << 30)) / c.cpu.clock, kMaxDeviceTime,
               "at cpu.clock " + text("cpu.clock") + " this step is ");

  build_hdd(c);
  build_raid(c);
  c.sata.gen = uint32_t(count("sata.gen", 1, 3));
  c.sata.cmd_overhead = duration("sata.cmd_overhead");
  c.sata.fis_overhead = duration("sata.fis_overhead");
  c.sata.ncq_depth = uint32_t(count("sata.ncq_depth", 1, 32));
  c.sata.flow_control = flag("sata.flow_control");
  c.host.ncq_depth = c.sata.ncq_depth;
  c.host.cmd_overhead = duration("host.cmd_overhead");
  c.host.irq_overhead = duration("host.irq_overhead");

  c.ftl_name = text("ftl.name");
  if (!ftl::FtlRegistry::instance().list().count(c.ftl_name)) {
    std::string known;
    for (const auto& [n, d] : ftl::FtlRegistry::instance().list()) known += (known.empty() ? "" : ", ") + n;
    throw error("ftl.name", "unknown FTL '" + c.ftl_name + "' (known: " + known + ")");
  }
  c.ftl_op = fraction("ftl.op");
  if (c.ftl_op <= 0) throw error("ftl.op", "the FTL needs some spare area (> 0)");
  c.gc_threshold = uint32_t(count("ftl.gc_threshold", 1, 1u << 20));
  c.idle_after = duration("ftl.idle_after", kMaxRunTime);
  c.idle_dies = uint32_t(count("ftl.idle_dies", 1, c.nand.geometry.dies()));
  if (given("ftl.idle_dies") && c.idle_after == sc_core::SC_ZERO_TIME)
    throw error("ftl.idle_dies", "only matters with idle-time work: set ftl.idle_after too");
  build_ftl();  // (refuses an FTL's idle-time option without ftl.idle_after)
  // The FTL's spare must hold the GC threshold plus its two open blocks
  // (multi-plane blocks with nand.multiplane: the blocks the FTL manages).
  const FlashGeometry fg = c.nand.ftl_geometry();
  const double user_blocks_per_die = double(fg.blocks_per_die()) / (1.0 + c.ftl_op);
  if (double(fg.blocks_per_die()) - std::ceil(user_blocks_per_die) < c.gc_threshold + 2)
    throw error("ftl.op", "spare area of " + text("ftl.op") + " leaves fewer than gc_threshold + 2 = " +
                              std::to_string(c.gc_threshold + 2) + " spare blocks per die (of " +
                              std::to_string(fg.blocks_per_die()) + (c.nand.multiplane ? " multi-plane" : "") + " blocks per die)");

  const std::string& pre = choice("precondition", {"none", "seq-fill", "used"});
  const double overwrite = fraction("precondition.overwrite");
  if (given("precondition.overwrite") && pre != "used")
    throw error("precondition.overwrite", "only applies to precondition=used (its random overwrites)");
  c.state = DriveState::precondition(pre, overwrite);
  if (!text("state").empty()) {
    for (const char* k : {"precondition", "precondition.overwrite"})
      if (given(k)) throw error("state", std::string("cannot be combined with --") + k);
    try {
      c.state = DriveState::resolve(text("state"));
    } catch (const std::invalid_argument& e) {
      throw error("state", e.what());
    }
    c.state_option = true;
  }
  c.state_threads = uint32_t(count("state.threads", 0, 256));
  c.save_state = text("save-state");
  c.load_state = text("load-state");
  if (!c.load_state.empty()) {
    for (const char* k : {"precondition", "precondition.overwrite", "state", "state.threads", "save-state"})
      if (given(k))
        throw error("load-state", std::string("the loaded state replaces --") + k + ": give one of them");
    // Refused here, before the drive is built (a terabyte drive's tables take
    // seconds). A directory opens as a stream, then reads nothing.
    std::error_code ec;
    if (std::filesystem::is_directory(c.load_state, ec))
      throw error("load-state", c.load_state + ": is a directory, not a checkpoint");
    const std::ifstream probe(c.load_state, std::ios::binary);
    if (!probe) throw error("load-state", c.load_state + ": cannot open (" + std::strerror(errno) + ")");
    c.state = DriveState{"loaded", {}};
    c.state_option = true;
  }
  if (c.hdd && (!c.load_state.empty() || !c.save_state.empty()))
    throw error(c.load_state.empty() ? "save-state" : "load-state", "a hard disk has no drive state to save");

  WorkloadConfig& w = c.workload;
  w.rw = choice("workload.rw", {"read", "write", "randread", "randwrite", "randrw", "rw", "readwrite"});
  w.bs = size("workload.bs", false);
  if (w.bs % 512 != 0) throw error("workload.bs", "must be a multiple of 512 B");
  if (w.bs > ssdtlm::kMaxCommandBytes)
    throw error("workload.bs", ssdtlm::kMaxCommandRefusal);
  const bool replaying = !text("trace").empty();
  w.iodepth = uint32_t(count("workload.iodepth", 1, 1u << 20));
  // Beyond sata.ncq_depth the requests wait in the host queue (fio's iodepth above NCQ).
  if (!replaying && w.iodepth > kMaxHostQueue)
    throw error("workload.iodepth", std::to_string(w.iodepth) + " is above the host queue limit of " +
                                        std::to_string(kMaxHostQueue));
  w.rwmixread = uint32_t(count("workload.rwmixread", 0, 100));
  w.percentage_random = uint32_t(count("workload.percentage_random", 0, 100));
  // (Given for a pattern they do not shape, they would be silently ignored.)
  if (given("workload.rwmixread") && w.rw != "randrw" && w.rw != "rw" && w.rw != "readwrite")
    throw error("workload.rwmixread", "mixes reads into writes: needs workload.rw=randrw, rw or readwrite (not " +
                                          w.rw + ")");
  if (given("workload.percentage_random") && w.rw.rfind("rand", 0) != 0)
    throw error("workload.percentage_random", "makes part of a random pattern sequential: needs workload.rw=randread, "
                                              "randwrite or randrw (not " + w.rw + ")");
  w.size = size("workload.size");
  w.offset = size("workload.offset");
  if (w.offset % 512 != 0) throw error("workload.offset", "must be a multiple of 512 B");
  w.number_ios = count("workload.number_ios", 0, UINT64_MAX);
  w.runtime = duration("workload.runtime", kMaxRunTime);
  w.randseed = count("workload.randseed", 0, UINT64_MAX);
  if (w.number_ios == 0 && w.runtime == sc_core::SC_ZERO_TIME && !replaying)
    throw error("workload.number_ios", "0 (unlimited) needs a workload.runtime");
  const uint64_t member_bytes = ftl::user_pages_for(g, c.ftl_op) * g.page_size;
  if (!c.hdd && c.raid.members > 1 && c.raid.stripe > member_bytes)
    throw error("raid.stripe", "a stripe of " + std::to_string(c.raid.stripe) + " B is more than a member's user capacity (" +
                                   std::to_string(member_bytes) + " B)");
  const uint64_t user_bytes = c.hdd                ? c.disk.capacity
                              : c.raid.members > 1 ? member_bytes / c.raid.stripe * c.raid.stripe * c.raid.members
                                                   : member_bytes;
  if (w.size && w.size < w.bs)
    throw error("workload.size", "span of " + text("workload.size") + " is smaller than workload.bs (" +
                                     text("workload.bs") + ")");
  if (w.offset >= user_bytes)
    throw error("workload.offset", "starts at byte " + std::to_string(w.offset) +
                                       ", beyond the drive's user capacity of " + std::to_string(user_bytes) + " bytes");
  // Compared as "fits in what is left after the offset": offset + size could wrap.
  if ((w.size ? w.size : w.bs) > user_bytes - w.offset)
    throw error(w.size ? "workload.size" : "workload.bs",
                text(w.size ? "workload.size" : "workload.bs") + " from workload.offset " + text("workload.offset") +
                    " ends beyond the drive's user capacity of " + std::to_string(user_bytes) + " bytes");

  build_replay(c);

  // An option of the mode not in use, given anyway, would be silently
  // ignored: the trace gives the requests (their sizes, places, mix, queue
  // depth: trace.*), the synthetic workload has no trace. (Only what the
  // user set is refused: defaults of the other mode are not checked, D9.)
  for (const auto& s : option_specs()) {
    if (!given(s.key)) continue;
    if (replaying && s.key.rfind("workload.", 0) == 0 && s.key != "workload.runtime" &&
        s.key != "workload.compressibility")
      throw error(s.key, "does not apply to a trace replay (--trace gives the requests; see trace.*)");
    if (!replaying && s.key.rfind("trace.", 0) == 0) throw error(s.key, "needs --trace=FILE");
  }
  c.export_trace = text("export-trace");
  c.export_format = choice("export-trace.format", traces::trace_formats());
  if (!c.export_trace.empty() && w.number_ios == 0)
    throw error("export-trace", "needs a bounded workload (workload.number_ios > 0)");
  // The export writes the synthetic workload's requests and stops: what
  // only a simulation reads or writes would be silently ignored.
  if (!c.export_trace.empty() && replaying)
    throw error("trace", "cannot be combined with --export-trace (it writes the synthetic workload's requests, it "
                         "does not convert a trace)");
  if (!c.export_trace.empty())
    for (const char* k : {"vcd", "activity", "report", "report.avgtime", "output", "output-format", "latency-log",
                          "timeseries", "save-state", "load-state", "state", "precondition", "precondition.overwrite",
                          "state.threads", "powerfail.at", "check.content", "store-data"})
      if (given(k)) throw error(k, "nothing is simulated with --export-trace");
  c.latency_log = text("latency-log");
  c.timeseries = text("timeseries");
  c.timeseries_interval = duration("timeseries.interval", kMaxRunTime);
  // Rows are whole nanoseconds apart.
  if (c.timeseries_interval < sc_core::sc_time(1, sc_core::SC_NS))
    throw error("timeseries.interval", "must be at least 1ns");
  // A row per interval (io_logs.h): a run of known length that would write
  // more than the bound is refused before it starts, not stopped at it.
  if (!c.timeseries.empty() && w.runtime / c.timeseries_interval > double(kMaxTimeSeriesRows))
    throw error("timeseries.interval", "gives " + std::to_string(uint64_t(w.runtime / c.timeseries_interval)) +
                                           " rows over workload.runtime " + text("workload.runtime") + ", more than " +
                                           std::to_string(kMaxTimeSeriesRows) + ": choose a longer interval");
  c.vcd = text("vcd");
  if (!c.vcd.empty() && (c.vcd.size() < 5 || c.vcd.compare(c.vcd.size() - 4, 4, ".vcd") != 0))
    throw error("vcd", "the file name must end in .vcd (SystemC's VCD writer adds that suffix)");
  c.vcd_start = duration("vcd.start", kMaxRunTime);
  c.vcd_end = duration("vcd.end", kMaxRunTime);
  c.activity = text("activity");
  c.activity_start = duration("activity.start", kMaxRunTime);
  c.activity_end = duration("activity.end", kMaxRunTime);
  for (const char* k : {"vcd", "activity"}) {
    const std::string key = k;
    const sc_core::sc_time& s = key == "vcd" ? c.vcd_start : c.activity_start;
    const sc_core::sc_time& e = key == "vcd" ? c.vcd_end : c.activity_end;
    if (e != sc_core::SC_ZERO_TIME && e <= s) throw error(key + ".end", "must be after " + key + ".start");
  }
  // A setting of an output whose file is not written would be silently ignored.
  for (const auto& [file, setting] :
       {std::pair{"vcd", "vcd.start"}, std::pair{"vcd", "vcd.end"}, std::pair{"activity", "activity.start"},
        std::pair{"activity", "activity.end"}, std::pair{"timeseries", "timeseries.interval"},
        std::pair{"latency-log", "latency-log.format"}, std::pair{"export-trace", "export-trace.format"}})
    if (text(file).empty() && given(setting)) throw error(setting, std::string("needs --") + file + "=FILE");
  c.seed = count("seed", 0, UINT64_MAX);
  c.report = text("report");
  c.powerfail_from_trace = text("powerfail.at") == "trace";
  if (const std::string& pf = text("powerfail.at"); !c.powerfail_from_trace && !pf.empty() && std::isalpha(uint8_t(pf[0])))
    throw error("powerfail.at", "is a time (e.g. 40ms), 0 for never, or 'trace'; not '" + pf + "'");
  if (c.powerfail_from_trace && c.replay.path.empty())
    throw error("powerfail.at", "=trace cuts the power at the replayed trace's powerfail record: needs --trace");
  namespace fs = std::filesystem;
  if (std::error_code ec; c.powerfail_from_trace && fs::exists(c.replay.path, ec) &&
                          !fs::is_regular_file(c.replay.path, ec) && !fs::is_directory(c.replay.path, ec))
    throw error("powerfail.at", "=trace reads the trace twice (its powerfail record, then the replay): "
                                "--trace must be a file, not a pipe");
  if (!c.powerfail_from_trace) c.powerfail_at = duration("powerfail.at", kMaxRunTime);
  c.powerfail_lost = text("powerfail.lost");
  if (!c.powerfail_lost.empty() && !c.powerfail())
    throw error("powerfail.lost", "needs --powerfail.at (no power cut, nothing lost)");
  c.dram.plp = duration("dram.plp", kMaxRunTime);
  if (given("dram.plp") && !c.powerfail())
    throw error("dram.plp", "only matters at a power cut: needs --powerfail.at");
  c.log_level = choice("log-level", {"trace", "debug", "info", "warn", "error", "off"});
  if (c.nand.suspend && c.powerfail())
    throw error("powerfail.at", "is not modelled together with nand.suspend (a suspended program's durability)");
  c.track_content = flag("check.content") || c.powerfail();

  // fio compatibility: output formats, latency log format, job files.
  c.output = text("output");
  c.output_normal = c.output_json = c.output_json_plus = false;
  for (const std::string& f : comma_list(text("output-format"))) {
    if (f == "normal") c.output_normal = true;
    else if (f == "json") c.output_json = true;
    else if (f == "json+") c.output_json = c.output_json_plus = true;
    else throw error("output-format", "'" + f + "' is not one of: normal, json, json+");
  }
  if (!c.output_normal && !c.output_json) throw error("output-format", "needs normal, json or json+");
  c.latency_log_fio = choice("latency-log.format", {"csv", "fio"}) == "fio";
  c.report_avgtime = duration("report.avgtime", kMaxRunTime);
  if (c.report_avgtime < sc_core::sc_time(1, sc_core::SC_US)) throw error("report.avgtime", "must be at least 1us");
  if (given("report.avgtime") && c.report.empty() && !c.output_json)
    throw error("report.avgtime", "sets samples of the JSON report: needs --report=FILE or --output-format=json");
  c.job_file = text("job");
  if (!c.job_file.empty()) {
    if (!c.replay.path.empty()) throw error("job", "cannot be combined with --trace");
    if (!c.export_trace.empty()) throw error("job", "cannot be combined with --export-trace");
    for (const auto& s : option_specs())
      if (s.key.rfind("workload.", 0) == 0 && given(s.key))
        throw error(s.key, "cannot be combined with --job (the job file sets the workload)");
    c.jobs = parse_fio_job_file(c.job_file, user_bytes);
  }
  build_compression(c);
  c.store_data = flag("store-data");
  check_output_paths(c);
}

}  // namespace ssd
