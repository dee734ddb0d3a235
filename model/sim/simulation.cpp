#include "model/sim/simulation.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "model/sim/device_report.h"
#include "model/sim/fio_report.h"
#include "model/sim/interrupt.h"
#include "model/sim/log.h"
#include "model/sim/options.h"
#include "model/sim/sanitizer_stack.h"
#include "model/host/workload.h"
#include "model/sim/drive_checkpoint.h"

namespace ssd {

using Clock = std::chrono::steady_clock;

namespace {
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Progress lines go to stderr only (stdout may carry the JSON report), at
// most one per 2 s of wall time, and not at all with --log-level=off.
class Progress {
 public:
  explicit Progress(bool on) : on_(on), start_(Clock::now()), last_(start_) {}
  // True (and restarts the 2 s period) when a line is due.
  bool due() {
    if (!on_ || seconds_since(last_) < 2.0) return false;
    last_ = Clock::now();
    return true;
  }
  double wall() const { return seconds_since(start_); }
  // ", 42 %, ETA 17 s" for a known fraction done in (0, 1], else "".
  std::string eta(double fraction) const {
    if (!(fraction > 0)) return "";
    fraction = std::min(fraction, 1.0);
    char buf[64];
    std::snprintf(buf, sizeof buf, ", %.0f %%, ETA %.0f s", fraction * 100.0, wall() * (1.0 - fraction) / fraction);
    return buf;
  }

 private:
  bool on_;
  Clock::time_point start_, last_;
};
}  // namespace

Simulation::Simulation(const SimConfig& cfg) : cfg_(cfg) {
  if (cfg.hdd) {
    hdd_ = std::make_unique<HddDrive>("hdd", cfg);
    return;
  }
  drive_ = std::make_unique<SsdDrive>("ssd", cfg);
  if (!cfg.vcd.empty() || !cfg.activity.empty()) {
    activity_ = std::make_unique<ActivityRecorder>("activity", cfg);
    drive_->trace(*activity_);
  }
}

Simulation::~Simulation() = default;

uint64_t Simulation::user_bytes() const { return hdd_ ? hdd_->disk.user_bytes() : drive_->user_bytes(); }

uint64_t Simulation::workload_span() const {
  return cfg_.workload.size ? cfg_.workload.size : user_bytes() - cfg_.workload.offset;
}

void Simulation::run(IoSource* source, uint32_t iodepth) {
  if (!source) {
    const uint64_t seed = cfg_.workload.randseed ? cfg_.workload.randseed : cfg_.seed;
    auto synthetic = std::make_unique<SyntheticWorkload>(cfg_.workload, workload_span(), seed);
    // Speed only: the controller prefetches the map entries of requests to come.
    if (drive_ && cfg_.raid.members == 1)
      synthetic->on_lookahead([c = &drive_->controller](const HostRequest& r) { c->prefetch(r.offset); });
    synthetic_ = std::move(synthetic);
    source = synthetic_.get();
    iodepth = cfg_.workload.iodepth;
    expected_ios_ = cfg_.workload.number_ios;
  }
  run(std::vector<HostStream>{HostStream{source, iodepth, cfg_.workload.runtime}});
}

std::string Simulation::workload_description() const {
  std::string d;
  for (const HostStream& s : streams_) d += (d.empty() ? "" : "; ") + s.source->describe();
  return d;
}

void Simulation::run(const std::vector<HostStream>& streams) {
  auto t0 = Clock::now();
  const uint32_t page = cfg_.nand.host_page();
  if (cfg_.track_content && drive_)
    shadow_ = std::make_unique<ContentShadow>(drive_->user_bytes() / page, page);
  const bool show_progress = cfg_.log_level != "off";
  Progress pre(show_progress);
  const auto progress = [&pre](uint64_t done, uint64_t total) {
    if (interrupt_signal()) {
      run_stopped();
      throw Interrupted("while preconditioning, at page " + std::to_string(done) + " of " + std::to_string(total) +
                        ": no report (the timed phase never ran)");
    }
    if (pre.due())
      std::fprintf(stderr, "ssdsim: preconditioning, %llu of %llu pages, %.1f s wall%s\n",
                   static_cast<unsigned long long>(done), static_cast<unsigned long long>(total), pre.wall(),
                   pre.eta(double(done) / double(total)).c_str());
  };
  state_name_ = cfg_.state.name;
  if (drive_ && !cfg_.load_state.empty()) {
    state_ = load_drive_state(cfg_, *drive_, shadow_.get(), state_name_);
    state_name_ += " (loaded from " + cfg_.load_state + ")";
  } else if (drive_ && !drive_->raid) {
    state_ = drive_->controller.apply_state(cfg_.state, cfg_.seed, shadow_.get(), progress);
  } else if (drive_) {
    // Each member gets the state on its own share (its own random draws),
    // its pages recorded under the host's LPNs.
    const RaidFrontend& raid = *drive_->raid;
    for (uint32_t m = 0; m < drive_->members(); ++m) {
      const auto to_host = [&raid, m, page](uint64_t lpn) { return raid.host_offset(m, lpn * page) / page; };
      auto r = drive_->member_controller(m).apply_state(cfg_.state, cfg_.seed + m, shadow_.get(), progress, to_host);
      if (m == 0) state_ = r;
      else
        for (size_t i = 0; i < r.size(); ++i) {
          state_[i].pages_written += r[i].pages_written, state_[i].gc_pages_moved += r[i].gc_pages_moved;
          state_[i].trimmed_pages += r[i].trimmed_pages, state_[i].background_slices += r[i].background_slices;
          state_[i].trace_records += r[i].trace_records;
          state_[i].idle_flash_s = std::max(state_[i].idle_flash_s, r[i].idle_flash_s);
        }
    }
  }
  if (drive_ && !cfg_.save_state.empty()) save_drive_state(cfg_, *drive_, shadow_.get(), state_name_, state_);
  precondition_s_ = seconds_since(t0);
  log::get("ssd")->info("preconditioned ({}) in {:.2f} s", state_name_, precondition_s_);

  if (cfg_.powerfail()) {
    power_fail_ = std::make_unique<PowerFail>(cfg_.powerfail_at, cfg_.dram.plp, shadow_->tags(),
                                              cfg_.nand.host_page());
    drive_->controller.on_host_program(
        [this](uint64_t lpn, uint64_t tag, const sc_time& done) { power_fail_->programmed(lpn, tag, done); });
  }
  streams_ = streams;
  host_ = std::make_unique<Host>("host", streams, shadow_.get(), cfg_.host);
  host_->socket.bind(hdd_ ? hdd_->sata.host : drive_->sata.host);
  // The timed phase ends with the host's last completion: the firmware
  // starts no idle-time work after it (work in flight drains).
  if (drive_)
    host_->on_finished([this] {
      for (uint32_t m = 0; m < drive_->members(); ++m) drive_->member_controller(m).host_finished();
    });

  // Progress, checked every 16k IOs. The run ends at the first limit it
  // reaches: the synthetic workload's number_ios, or the streams' runtime
  // when every stream has one; the larger fraction is the one done. (A
  // trace's or job file's end by count is not known ahead: no percentage.)
  double end_s = 0;
  for (const HostStream& s : streams) end_s = std::max(end_s, s.runtime.to_seconds());
  for (const HostStream& s : streams)
    if (s.runtime == sc_core::SC_ZERO_TIME) end_s = 0;  // that stream runs until its source ends
  Progress timed(show_progress);
  uint64_t n = 0;
  host_->on_completion([this, &n, &timed, end_s](const IoCompletion& c) {
    if (interrupt_signal()) host_->interrupt();  // (this IO is still counted: it completed)
    for (auto& f : observers_) f(c);
    if (power_fail_) power_fail_->completed(c, c.data_tag);
    if ((++n & 0x3fff) == 0 && timed.due()) {
      double fraction = expected_ios_ ? double(n) / double(expected_ios_) : 0.0;
      if (end_s > 0) fraction = std::max(fraction, c.completion.to_seconds() / end_s);
      std::fprintf(stderr, "ssdsim: %.3f s simulated, %llu IOs, %.1f s wall%s\n", c.completion.to_seconds(),
                   static_cast<unsigned long long>(n), timed.wall(), timed.eta(fraction).c_str());
    }
  });
  t0 = Clock::now();
  const uint64_t deltas = sc_core::sc_delta_count();
  if (power_fail_ && power_fail_->cut_known()) sc_core::sc_start(cfg_.powerfail_at);  // the power is cut: nothing runs past it
  else sc_core::sc_start();  // (powerfail.at=trace: cut_power() pauses it)
  resync_sanitizer_main_stack();
  run_stopped();  // (an interrupt from here on waits for the report)
  timed_s_ = seconds_since(t0);
  kernel_deltas_ = sc_core::sc_delta_count() - deltas;
  // (powerfail.at=trace without a record: the replay says so.)
  if (power_fail_ && power_fail_->cut_known() && host_->stop_reason() != StopReason::Interrupted) {
    host_->power_cut();
    power_fail_->analyse(cfg_.powerfail_lost, drive_->controller.acknowledged_before_flash());
  }
  host_->on_completion(nullptr);
  if (activity_) activity_->finish();
  if (host_->failure()) std::rethrow_exception(host_->failure());
  if (host_->stop_reason() == StopReason::TimeLimit)
    throw OptionError("configuration: the run passed " + std::to_string(uint64_t(Host::kTimeLimitSeconds)) +
                      " s of simulated time, the most SystemC's 64-bit picosecond clock can hold with room to spare; "
                      "bound it with workload.number_ios or workload.runtime");
}

void Simulation::cut_power(const sc_time& at) {
  cfg_.powerfail_at = at;
  if (!power_fail_) return;  // before the run: it runs to `at`, as with --powerfail.at
  power_fail_->cut(at);
  sc_core::sc_pause();  // during it the cut is now: the host reached the record
}

nlohmann::json Simulation::report() const {
  using nlohmann::json;
  const sc_time elapsed = host_->last_completion();
  const double secs = elapsed.to_seconds();
  json r;
  const char* names[] = {"read", "write", "trim"};
  for (int op = 0; op < 3; ++op) {
    const OpStats& s = host_->stats(static_cast<ssdtlm::HostOp>(op));
    json sec;
    sec["total_ios"] = s.lat.count();
    sec["io_bytes"] = s.bytes;
    sec["iops"] = secs > 0 ? double(s.lat.count()) / secs : 0.0;
    sec["bw_bytes"] = secs > 0 ? uint64_t(double(s.bytes) / secs) : 0;
    sec["runtime"] = uint64_t(secs * 1000.0);  // ms, as fio
    sec["lat_ns"] = latency_json(s.lat, false, true);
    sec["clat_ns"] = latency_json(s.clat, false, true);
    sec["slat_ns"] = latency_json(s.slat, false, true);
    r[names[op]] = sec;
  }
  const OpStats& flush = host_->stats(ssdtlm::HostOp::Flush);
  r["flush"] = {{"total_ios", flush.lat.count()}, {"lat_ns", {{"mean", flush.lat.mean()}, {"max", flush.lat.max()}}}};
  if (hdd_) {
    r["device"] = hdd_report(elapsed);
    return r;
  }
  // Utilisation is over the whole time the drive was active: write-back
  // destaging can run past the last host completion (reported as drain).
  sc_time active = std::max(elapsed, drive_->sata.busy_until());
  for (uint32_t m = 0; m < drive_->members(); ++m) {
    active = std::max({active, drive_->member_controller(m).cpu().busy_until(), drive_->member_dram(m).busy_until()});
    for (const auto& ch : drive_->member_channels(m)) active = std::max(active, ch->busy_until());
  }

  json dev;
  if (!drive_->raid) {
    dev = ssd_member_report(drive_->controller, drive_->dram, drive_->channels, cfg_, active);
  } else {
    std::vector<json> members;
    for (uint32_t m = 0; m < drive_->members(); ++m)
      members.push_back(ssd_member_report(drive_->member_controller(m), drive_->member_dram(m),
                                          drive_->member_channels(m), cfg_, active));
    dev = raid_totals(members);
    dev["user_capacity_bytes"] = drive_->user_bytes();
    json subs = json::array();
    for (uint64_t n : drive_->raid->sub_commands()) subs.push_back(n);
    dev["raid"] = {{"members", cfg_.raid.members}, {"stripe_bytes", cfg_.raid.stripe},
                   {"sub_commands", subs}, {"split_commands", drive_->raid->split_commands()}};
  }
  dev["kernel"] = {{"delta_cycles", kernel_deltas_}};
  if (power_fail_) r["powerfail"] = power_fail_->report();
  json phases = json::array();
  for (const StatePhaseResult& s : state_)
    phases.push_back({{"phase", s.phase}, {"pages_written", s.pages_written}, {"gc_pages_moved", s.gc_pages_moved},
                      {"trimmed_pages", s.trimmed_pages}, {"background_slices", s.background_slices},
                      {"idle_flash_s", s.idle_flash_s}, {"trace_records", s.trace_records}});
  r["state"] = {{"name", state_name_}, {"phases", phases}};
  dev["sata"] = {{"utilisation", drive_->sata.utilisation(active)},
                 {"commands", drive_->sata.commands()},
                 {"write_data_held_ns", ssdtlm::to_ns(drive_->sata.data_held())}};
  dev["simulated_time_ns"] = ssdtlm::to_ns(elapsed);
  dev["drain_ns"] = ssdtlm::to_ns(active - elapsed);
  dev["stop_reason"] = to_string(host_->stop_reason());
  if (shadow_) dev["content_check"] = {{"pages_checked", shadow_->pages_checked()}};
  dev["wall_clock_s"] = {{"precondition", precondition_s_}, {"timed", timed_s_}};
  dev["host_errors"] = host_->errors();
  r["device"] = dev;
  return r;
}

nlohmann::json Simulation::hdd_report(const sc_time& elapsed) const {
  const HddDisk& d = hdd_->disk;
  const HddStats& st = d.stats();
  const sc_time active = std::max({elapsed, hdd_->sata.busy_until(), d.busy_until()});
  const double ops = double(std::max<uint64_t>(1, st.media_ops));
  nlohmann::json dev;
  dev["type"] = "hdd";
  dev["user_capacity_bytes"] = d.user_bytes();
  dev["hdd"] = {{"commands", st.commands},
                {"media_ops", st.media_ops},
                {"seeks", st.seeks},
                {"mean_seek_distance", st.seeks ? st.seek_distance / double(st.seeks) : 0.0},
                {"mean_seek_ms", st.seek_s / ops * 1e3},
                {"mean_rotation_ms", st.rotation_s / ops * 1e3},
                {"transfer_s", st.transfer_s},
                {"buffer_hits", st.cache_hits},
                {"destaged_writes", st.destaged_writes},
                {"utilisation", active == sc_core::SC_ZERO_TIME
                                    ? 0.0
                                    : (st.seek_s + st.rotation_s + st.transfer_s) / active.to_seconds()}};
  dev["sata"] = {{"utilisation", hdd_->sata.utilisation(active)},
                 {"commands", hdd_->sata.commands()},
                 {"write_data_held_ns", ssdtlm::to_ns(hdd_->sata.data_held())}};
  dev["simulated_time_ns"] = ssdtlm::to_ns(elapsed);
  dev["drain_ns"] = ssdtlm::to_ns(active - elapsed);
  dev["stop_reason"] = to_string(host_->stop_reason());
  dev["wall_clock_s"] = {{"precondition", precondition_s_}, {"timed", timed_s_}};
  dev["host_errors"] = host_->errors();
  dev["kernel"] = {{"delta_cycles", kernel_deltas_}};
  return dev;
}

}  // namespace ssd
