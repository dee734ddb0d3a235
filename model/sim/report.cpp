#include "model/sim/report.h"

#include <algorithm>
#include <string>

namespace ssd {

namespace {
// The SSD's device lines: write amplification, GC, wear; what each resource was busy.
void ssd_lines(FILE* out, const nlohmann::json& dev) {
  double ch_sum = 0, ch_max = 0, die_sum = 0, die_max = 0;
  for (const auto& c : dev["channels"]) ch_sum += c["utilisation"].get<double>(), ch_max = std::max(ch_max, c["utilisation"].get<double>());
  for (const auto& d : dev["dies"]) die_sum += d["utilisation"].get<double>(), die_max = std::max(die_max, d["utilisation"].get<double>());
  const double nch = std::max<size_t>(1, dev["channels"].size()), ndie = std::max<size_t>(1, dev["dies"].size());
  // (No host page written: the ratio has no value, and 0 would read as a measurement.)
  char wa[32] = "n/a (no host writes)";
  if (dev["host_pages_written"].get<uint64_t>() != 0)
    std::snprintf(wa, sizeof wa, "%.3f", dev["write_amplification"].get<double>());
  std::fprintf(out, "device: WA=%s, GC runs=%llu, GC pages moved=%llu, erase count min/mean/max=%llu/%.2f/%llu\n", wa,
               static_cast<unsigned long long>(dev["gc_runs"].get<uint64_t>()),
               static_cast<unsigned long long>(dev["gc_pages_moved"].get<uint64_t>()),
               static_cast<unsigned long long>(dev["erase_count"]["min"].get<uint64_t>()),
               dev["erase_count"]["mean"].get<double>(),
               static_cast<unsigned long long>(dev["erase_count"]["max"].get<uint64_t>()));
  std::fprintf(out, "  utilisation: sata %.1f%%, cpu %.1f%%, dram %.1f%%, channels avg %.1f%% max %.1f%%, dies avg %.1f%% max %.1f%%\n",
               100 * dev["sata"]["utilisation"].get<double>(), 100 * dev["cpu"]["utilisation"].get<double>(),
               100 * dev["dram"]["utilisation"].get<double>(), 100 * ch_sum / nch, 100 * ch_max,
               100 * die_sum / ndie, 100 * die_max);
}
}  // namespace


namespace {
double us(const nlohmann::json& v) { return v.get<double>() / 1000.0; }
}  // namespace

void print_summary(std::FILE* out, const nlohmann::json& r) {
  const auto& dev = r["device"];
  std::fprintf(out, "ssdsim %s: %s\n", r.value("ssdsim_version", "?").c_str(), r.value("drive", "").c_str());
  std::fprintf(out, "workload: %s\n", r.value("workload", "").c_str());
  for (const char* op : {"read", "write", "trim"}) {
    const auto& s = r[op];
    if (s["total_ios"].get<uint64_t>() == 0) continue;
    const auto& lat = s["lat_ns"];
    const auto& p = lat["percentile"];
    std::fprintf(out,
                 "  %-5s: IOPS=%.0f, BW=%.1fMB/s, ios=%llu, lat(us): min=%.1f avg=%.1f max=%.1f "
                 "p50=%.1f p99=%.1f p99.9=%.1f\n",
                 op, s["iops"].get<double>(), s["bw_bytes"].get<double>() / 1e6,
                 static_cast<unsigned long long>(s["total_ios"].get<uint64_t>()), us(lat["min"]), us(lat["mean"]),
                 us(lat["max"]), us(p["50.000000"]), us(p["99.000000"]), us(p["99.900000"]));
    if (s["slat_ns"]["max"].get<uint64_t>() > 0)
      std::fprintf(out, "         host-queue wait(us): avg=%.1f max=%.1f; device(us): avg=%.1f\n",
                   us(s["slat_ns"]["mean"]), us(s["slat_ns"]["max"]), us(s["clat_ns"]["mean"]));
  }
  // FLUSH CACHE commands (a trace's, a job's fsync): the report keeps their
  // count, mean and maximum (docs/report.md), no percentiles.
  if (const auto& f = r["flush"]; f.value("total_ios", uint64_t(0)) > 0)
    std::fprintf(out, "  flush: ios=%llu, lat(us): avg=%.1f max=%.1f\n",
                 static_cast<unsigned long long>(f["total_ios"].get<uint64_t>()), us(f["lat_ns"]["mean"]),
                 us(f["lat_ns"]["max"]));
  // Several fio jobs: one line each, from the jobs[] of fio's envelope.
  if (r.contains("jobs") && r["jobs"].size() > 1)
    for (const auto& j : r["jobs"]) {
      std::string line;
      for (const char* op : {"read", "write", "trim"}) {
        const auto& s = j[op];
        if (s["total_ios"].get<uint64_t>() == 0) continue;
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s%s IOPS=%.0f BW=%.1fMB/s lat avg=%.1fus", line.empty() ? "" : "; ", op,
                      s["iops"].get<double>(), s["bw_bytes"].get<double>() / 1e6, us(s["lat_ns"]["mean"]));
        line += buf;
      }
      std::fprintf(out, "  job %s: %s\n", j.value("jobname", "").c_str(), line.empty() ? "no IO" : line.c_str());
    }
  if (dev.value("type", "") == "hdd") {
    const auto& h = dev["hdd"];
    std::fprintf(out, "device: hard disk, %llu media ops, mean seek %.2f ms, mean rotation %.2f ms, %llu buffer hits, "
                      "utilisation %.1f%%\n",
                 static_cast<unsigned long long>(h["media_ops"].get<uint64_t>()), h["mean_seek_ms"].get<double>(),
                 h["mean_rotation_ms"].get<double>(), static_cast<unsigned long long>(h["buffer_hits"].get<uint64_t>()),
                 100 * h["utilisation"].get<double>());
  } else {
    ssd_lines(out, dev);
  }
  if (r.contains("trace")) {
    const auto& t = r["trace"];
    std::fprintf(out, "trace: %s (%s): %llu records read, %llu replayed, %llu filtered, %llu skipped as bad, %llu remapped\n",
                 t.value("path", "").c_str(), t.value("format", "").c_str(),
                 static_cast<unsigned long long>(t.value("records_read", uint64_t(0))),
                 static_cast<unsigned long long>(t.value("replayed", uint64_t(0))),
                 static_cast<unsigned long long>(t.value("filtered", uint64_t(0))),
                 static_cast<unsigned long long>(t.value("skipped_bad", uint64_t(0))),
                 static_cast<unsigned long long>(t.value("remapped", uint64_t(0))));
  }
  std::fprintf(out, "simulated %.6f s in %.2f s wall (precondition %.2f s), stopped: %s\n",
               dev["simulated_time_ns"].get<double>() / 1e9, dev["wall_clock_s"]["timed"].get<double>(),
               dev["wall_clock_s"]["precondition"].get<double>(), dev.value("stop_reason", "?").c_str());
}

}  // namespace ssd
