// The trace replay's options (trace.*): the trace file and its format,
// how it is timed, what of it is kept, and where its LBAs land.
#include <cctype>
#include <charconv>
#include <string>

#include "model/sim/options.h"
#include "model/sim/text.h"
#include "traces/trace_reader.h"

namespace ssd {

void Options::build_replay(SimConfig& c) const {
  ReplayConfig& r = c.replay;
  r.path = text("trace");
  const bool replaying = !r.path.empty();
  r.format = text("trace.format");
  if (!r.format.empty()) choice("trace.format", traces::trace_formats());
  r.timed = choice("trace.mode", {"timed", "afap"}) == "timed";
  r.speed = real("trace.speed", 1e-6, 1e9);
  r.iodepth = uint32_t(count("trace.iodepth", 1, 1u << 20));
  if (replaying && r.iodepth > kMaxHostQueue)
    throw error("trace.iodepth", std::to_string(r.iodepth) + " is above the host queue limit of " +
                                     std::to_string(kMaxHostQueue));
  const uint64_t sector = size("trace.sector_size", false);
  if (sector < 512 || sector > 65536 || (sector & (sector - 1)) != 0)
    throw error("trace.sector_size", "must be a power of two from 512B to 64k");
  r.sector_size = uint32_t(sector);
  r.offset = size("trace.offset");
  r.wrap = choice("trace.beyond", {"wrap", "error"}) == "wrap";
  r.arrival_issue = choice("trace.arrival", {"Q", "D"}) == "D";
  r.skip_bad = flag("trace.skip-bad");
  if (const std::string& d = text("trace.device"); !d.empty()) {
    // Digits only: sscanf's %lu would take "-5" as a huge number.
    const auto whole = [](const std::string& t, uint64_t max, uint64_t& v) {
      auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      return !t.empty() && std::isdigit(static_cast<unsigned char>(t[0])) && ec == std::errc() &&
             p == t.data() + t.size() && v <= max;
    };
    const size_t comma = d.find(',');
    uint64_t major = 0, minor = 0;
    if (comma != std::string::npos && whole(d.substr(0, comma), 4095, major) &&
        whole(d.substr(comma + 1), (1u << 20) - 1, minor))
      r.device = int64_t((major << 20) | minor);  // the kernel's dev_t as blktrace stores it
    else if (comma == std::string::npos && whole(d, uint64_t(INT64_MAX), major))
      r.device = int64_t(major);
    else
      throw error("trace.device", "expected MAJ,MIN (MAJ < 4096, MIN < 2^20) or a disk number, got '" +
                                      text::printable(d) + "'");
  }
  r.window_start = duration("trace.start", kMaxRunTime);
  r.window_end = duration("trace.end", kMaxRunTime);
  if (r.window_end != sc_core::SC_ZERO_TIME && r.window_end <= r.window_start)
    throw error("trace.end", "must be after trace.start");
  r.keep_read = r.keep_write = r.keep_discard = r.keep_flush = false;
  for (const std::string& op : text::split(text("trace.ops"), ',')) {
    if (op == "read") r.keep_read = true;
    else if (op == "write") r.keep_write = true;
    else if (op == "discard" || op == "trim") r.keep_discard = true;
    else if (op == "flush") r.keep_flush = true;
    else throw error("trace.ops", "unknown operation '" + op + "' (read, write, discard, flush)");
  }
  // An option of the timed replay, or of some formats only, given where it
  // does not apply, would be silently ignored.
  if (!replaying) return;
  if (!r.timed && given("trace.speed"))
    throw error("trace.speed", "paces a timed replay's arrivals; trace.mode=afap issues as fast as the drive takes them");
  if (!given("trace.arrival") && !given("trace.sector_size")) return;
  // (Detected once: the replay then reads the format from here.)
  if (r.format.empty()) try {
      r.format = traces::detect_format(r.path);
    } catch (const traces::TraceError&) {  // the replay's error to report
      return;
    }
  const std::string& format = r.format;
  if (given("trace.arrival") && format != "blktrace" && format != "blkparse")
    throw error("trace.arrival", "chooses between blktrace's Q and D events: " + r.path + " is a " + format + " trace");
  if (given("trace.sector_size") && format != "blkparse" && format != "spc" && format != "disksim")
    throw error("trace.sector_size", "applies to the formats that count sectors of a size the trace does not say "
                                     "(blkparse, spc, disksim): " + r.path + " is a " + format + " trace" +
                                     (format == "blktrace" ? " (512-byte sectors)" : " (bytes)"));
}

}  // namespace ssd
