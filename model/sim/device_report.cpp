#include "model/sim/device_report.h"

#include <algorithm>
#include <map>

#include "tlm/ssd_protocol.h"

namespace ssd {

using nlohmann::json;

json ssd_member_report(const Controller& ctl, const DramBuffer& dram,
                       const std::vector<std::unique_ptr<NandChannel>>& channels, const SimConfig& cfg,
                       const sc_core::sc_time& active) {
  const ftl::FtlStats& fs = ctl.ftl().stats();
  const FlashGeometry& g = cfg.nand.geometry;
  json dev;
  json ftl_stats = json::object();
  for (const ftl::FtlStat& s : ctl.ftl().extra_stats())
    ftl_stats[s.name] = {{"value", s.value}, {"unit", s.unit}, {"description", s.description}};
  dev["ftl"] = {{"name", cfg.ftl_name}, {"stats", ftl_stats}};
  dev["raw_capacity_bytes"] = g.bytes();
  dev["user_capacity_bytes"] = ctl.user_bytes();
  dev["write_amplification"] = fs.write_amplification();
  dev["host_pages_written"] = fs.host_pages_written;
  dev["flash_pages_written"] = fs.flash_pages_written;
  dev["gc_runs"] = fs.gc_runs;
  dev["gc_pages_moved"] = fs.gc_pages_moved;
  dev["trimmed_pages"] = fs.trimmed_pages;
  dev["unmapped_reads"] = fs.unmapped_reads;
  if (cfg.nand.compressed_bytes) {
    // Packed pages (compression, a map unit): what the FTL wrote (host
    // pages, uncompressed) against what reached the flash.
    uint64_t programs = 0;
    for (const auto& ch : channels) programs += ch->stats().programs + ch->stats().gc_programs;
    dev["compression"] = {{"compressed_page_bytes", cfg.nand.compressed_bytes},
                          {"logical_bytes_written", fs.flash_pages_written * cfg.nand.host_page()},
                          {"physical_bytes_written", programs * g.page_size},
                          {"flash_write_amplification",
                           fs.host_pages_written ? double(programs) / double(fs.host_pages_written) : 0.0}};
  }
  uint64_t emin = UINT64_MAX, emax = 0, esum = 0;
  std::map<uint64_t, uint64_t> histogram;  // erase count -> blocks
  // Per physical block: a multi-plane block's erase count is each of its planes' blocks'.
  const FlashGeometry& mg = ctl.media().geometry();
  const uint64_t per = g.blocks() / mg.blocks();
  for (uint32_t b = 0; b < mg.blocks(); ++b) {
    const uint64_t e = ctl.media().erase_count(BlockId(b));
    emin = std::min(emin, e), emax = std::max(emax, e), esum += e * per;
    histogram[e] += per;
  }
  json hist = json::object();
  for (const auto& [e, n] : histogram) hist[std::to_string(e)] = n;
  dev["erase_count"] = {{"min", emin}, {"mean", double(esum) / g.blocks()}, {"max", emax}, {"histogram", hist}};
  dev["background_slices"] = ctl.background_slices();
  dev["trims_ignored"] = ctl.trims_ignored();
  json chans = json::array(), dies = json::array();
  for (uint32_t c = 0; c < channels.size(); ++c) {
    const NandChannel& ch = *channels[c];
    const auto& st = ch.stats();
    chans.push_back({{"channel", c}, {"utilisation", ch.bus_utilisation(active)},
                     {"busy_ns", ssdtlm::to_ns(ch.bus_busy())},
                     {"reads", st.reads}, {"programs", st.programs}, {"erases", st.erases},
                     {"gc_reads", st.gc_reads}, {"gc_programs", st.gc_programs}, {"gc_erases", st.gc_erases},
                     {"multi_plane_ops", st.multi_plane_ops}, {"multi_plane_pages", st.multi_plane_pages},
                     {"suspends", st.suspends}});
    for (uint32_t d = 0; d < ch.dies(); ++d)
      dies.push_back({{"channel", c}, {"die", d}, {"utilisation", ch.die_utilisation(d, active)},
                      {"busy_ns", ssdtlm::to_ns(ch.die_busy(d))}});
  }
  dev["channels"] = chans;
  dev["dies"] = dies;
  const ControllerCpu& cpu = ctl.cpu();
  dev["cpu"] = {{"utilisation", cpu.utilisation(active)}, {"cycles", cpu.cycles_run()}};
  const uint64_t cache_bytes = ctl.write_cache().capacity() * cfg.nand.host_page();
  dev["dram"] = {{"utilisation", dram.utilisation(active)},
                 {"bytes", dram.bytes_moved()},
                 {"map_bytes", ctl.ftl().map_bytes()},
                 {"write_cache_bytes", cfg.dram.size ? cache_bytes : 0},
                 {"write_cache_read_hits", cfg.dram.size ? ctl.write_cache().hits() : 0}};
  // A DRAM-less controller's write buffer (controller.sram_write_buffer).
  dev["sram"] = {{"write_buffer_bytes", cfg.dram.size ? 0 : cache_bytes},
                 {"write_buffer_read_hits", cfg.dram.size ? 0 : ctl.write_cache().hits()}};
  return dev;
}

json raid_totals(const std::vector<json>& members) {
  json t;
  t["ftl"] = {{"name", members.front()["ftl"]["name"]}, {"stats", json::object()}};  // per member: members[]
  for (const char* k : {"raw_capacity_bytes", "host_pages_written", "flash_pages_written", "gc_runs", "gc_pages_moved",
                        "trimmed_pages", "unmapped_reads", "background_slices", "trims_ignored"}) {
    uint64_t sum = 0;
    for (const json& m : members) sum += m[k].get<uint64_t>();
    t[k] = sum;
  }
  const uint64_t host = t["host_pages_written"].get<uint64_t>();
  t["write_amplification"] = host ? double(t["flash_pages_written"].get<uint64_t>()) / double(host) : 0.0;
  // Wear over every block of every member.
  std::map<uint64_t, uint64_t> hist;
  uint64_t blocks = 0, esum = 0;
  for (const json& m : members)
    for (const auto& [e, n] : m["erase_count"]["histogram"].items()) {
      hist[std::stoull(e)] += n.get<uint64_t>();
      blocks += n.get<uint64_t>(), esum += std::stoull(e) * n.get<uint64_t>();
    }
  json h = json::object();
  for (const auto& [e, n] : hist) h[std::to_string(e)] = n;
  t["erase_count"] = {{"min", hist.begin()->first}, {"mean", double(esum) / double(blocks)},
                      {"max", hist.rbegin()->first}, {"histogram", h}};
  json chans = json::array(), dies = json::array();
  double cpu = 0, dram = 0;
  uint64_t cycles = 0, bytes = 0;
  for (size_t i = 0; i < members.size(); ++i) {
    for (json c : members[i]["channels"]) c["member"] = i, chans.push_back(c);
    for (json d : members[i]["dies"]) d["member"] = i, dies.push_back(d);
    cpu += members[i]["cpu"]["utilisation"].get<double>(), cycles += members[i]["cpu"]["cycles"].get<uint64_t>();
    dram += members[i]["dram"]["utilisation"].get<double>(), bytes += members[i]["dram"]["bytes"].get<uint64_t>();
  }
  const double n = double(members.size());
  t["channels"] = chans;
  t["dies"] = dies;
  if (members.front().contains("compression")) {  // packed pages: every member's (one configuration)
    uint64_t logical = 0, physical = 0, programs = 0;
    for (const json& m : members) {
      logical += m["compression"]["logical_bytes_written"].get<uint64_t>();
      physical += m["compression"]["physical_bytes_written"].get<uint64_t>();
    }
    for (const json& c : chans) programs += c["programs"].get<uint64_t>() + c["gc_programs"].get<uint64_t>();
    t["compression"] = {{"compressed_page_bytes", members.front()["compression"]["compressed_page_bytes"]},
                        {"logical_bytes_written", logical},
                        {"physical_bytes_written", physical},
                        {"flash_write_amplification", host ? double(programs) / double(host) : 0.0}};
  }
  t["cpu"] = {{"utilisation", cpu / n}, {"cycles", cycles}};
  t["dram"] = {{"utilisation", dram / n}, {"bytes", bytes}};
  t["members"] = members;
  return t;
}

}  // namespace ssd
