// The hard-disk side of the options: `device` and `hdd.*` (model/hdd).
// An option of the other device, given explicitly, is an error, never
// silently ignored.
#include <cmath>

#include "model/sim/options.h"
#include "tlm/ssd_protocol.h"

namespace ssd {

void Options::build_raid(SimConfig& c) const {
  c.raid.members = uint32_t(count("raid.members", 1, 16));
  c.raid.stripe = size("raid.stripe", false);
  c.raid.cmd_overhead = duration("raid.cmd_overhead");
  c.raid.member_queue = uint32_t(count("raid.member_queue", 1, 32));
  if (c.raid.stripe % c.nand.host_page())
    throw error("raid.stripe", "must be a multiple of the host page (" + std::to_string(c.nand.host_page()) +
                                   " B: nand.page_size or controller.map_unit)");
  if (c.raid.members == 1) {
    // (A RAID option given for a single SSD would be silently ignored.)
    for (const char* k : {"raid.stripe", "raid.cmd_overhead", "raid.member_queue"})
      if (given(k)) throw error(k, "has no effect with raid.members = 1 (a single SSD)");
    return;
  }
  if (c.hdd) throw error("raid.members", "stripes SSDs, not a hard disk (device=hdd)");
  for (const char* k : {"powerfail.at", "vcd", "activity"})
    if (given(k))
      throw error(k, "is not supported with raid.members > 1 yet");
}

void Options::build_hdd(SimConfig& c) const {
  c.hdd = choice("device", {"ssd", "hdd"}) == "hdd";
  static const char* const kSsdOnly[] = {"nand.",     "dram.",         "cpu.",        "ftl.",
                                         "controller.", "precondition", "state",      "check.content",
                                         "powerfail.", "vcd",          "activity",   "store-data"};
  for (const auto& s : option_specs()) {
    if (!given(s.key)) continue;
    if (!c.hdd && s.key.rfind("hdd.", 0) == 0) throw error(s.key, "is a hard-disk option: it needs device=hdd");
    if (c.hdd)
      for (const char* p : kSsdOnly)
        if (s.key.rfind(p, 0) == 0) throw error(s.key, "does not apply to device=hdd");
  }
  if (!c.hdd) return;
  HddConfig& d = c.disk;
  d.capacity = size("hdd.capacity", false);
  if (d.capacity % 512) throw error("hdd.capacity", "must be a whole number of 512-byte sectors");
  d.rpm = double(count("hdd.rpm", 1000, 30000));
  d.track_to_track = duration("hdd.track_to_track");
  d.avg_seek = duration("hdd.avg_seek");
  d.full_seek = duration("hdd.full_seek");
  if (!(d.track_to_track <= d.avg_seek && d.avg_seek <= d.full_seek))
    throw error("hdd.avg_seek", "needs hdd.track_to_track <= hdd.avg_seek <= hdd.full_seek");
  // The seek curve settle + a sqrt(d) + b d must rise: a, b >= 0 (hdd_disk.cpp).
  const double s = d.track_to_track.to_seconds(), avg = d.avg_seek.to_seconds() - s, full = d.full_seek.to_seconds() - s;
  const double a = (avg - full / 3.0) / (1.0 / std::sqrt(3.0) - 1.0 / 3.0);
  if (a < 0 || full - a < 0)
    throw error("hdd.avg_seek", "with these seeks the curve through the average (at a third of the stroke) and the "
                                "full stroke does not rise: the average must lie between " +
                                    std::to_string((s + full / 3.0) * 1e3) + " and " +
                                    std::to_string((s + full / std::sqrt(3.0)) * 1e3) + " ms");
  d.rate_outer = rate("hdd.rate_outer");
  d.rate_inner = rate("hdd.rate_inner");
  if (d.rate_inner > d.rate_outer) throw error("hdd.rate_inner", "the inner edge cannot be faster than the outer");
  // The media's times in SystemC's picoseconds: a sector at the outer edge
  // at least one, the largest command (32 MiB) at the inner edge within a
  // device step's limit (a slower rate would overflow the clock's sums).
  check_time("hdd.rate_outer", 512 / d.rate_outer, kMaxDeviceTime, "one sector's transfer is ");
  check_time("hdd.rate_inner", double(ssdtlm::kMaxCommandBytes) / d.rate_inner, kMaxDeviceTime,
             "the largest command's transfer (32 MiB) at the inner edge is ");
  d.cache = size("hdd.cache");
  d.read_ahead = size("hdd.read_ahead");
  // (The segment read ahead is held in the buffer: more than it holds would be cut silently.)
  if (d.read_ahead > d.cache) throw error("hdd.read_ahead", "is more than the buffer holds (hdd.cache)");
  d.write_cache = flag("hdd.write_cache");
  d.write_segments = uint32_t(count("hdd.write_segments", 1, 1024));
  if (d.write_cache && d.cache == 0) throw error("hdd.write_cache", "needs a buffer (hdd.cache > 0)");
  d.write_batch = choice("hdd.write_flush", {"continuous", "batch"}) == "batch";
  if (!d.write_cache && given("hdd.write_flush"))
    throw error("hdd.write_flush", "says how a full write cache empties; hdd.write_cache=false has none");
  if (!d.write_cache && given("hdd.write_segments"))
    throw error("hdd.write_segments", "says how many writes the write cache holds; hdd.write_cache=false has none");
  d.sptf = choice("hdd.ncq_reorder", {"sptf", "fifo"}) == "sptf";
  d.max_wait = text("hdd.max_wait") == "0" ? 0 : duration("hdd.max_wait").to_seconds();
  if (!d.sptf && given("hdd.max_wait"))
    throw error("hdd.max_wait", "bounds the wait of SPTF reordering; hdd.ncq_reorder=fifo never reorders");
  d.cmd_overhead = duration("hdd.cmd_overhead");
}

}  // namespace ssd
