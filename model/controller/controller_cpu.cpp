#include "model/controller/controller_cpu.h"

#include <algorithm>

#include "tlm/ssd_protocol.h"

namespace ssd {

ControllerCpu::ControllerCpu(sc_core::sc_module_name name, const CpuConfig& cfg)
    : sc_module(name), cfg_(cfg), cycle_time_(cfg.clock), cores_(cfg.cores) {}

sc_time ControllerCpu::execute(const sc_time& at, uint64_t cycles) {
  if (cycles == 0) return at;
  cycles_ += cycles;
  const sc_time d = cycle_time_(cycles);
  // Firmware tasks interleave on a core (an event loop between NAND and host
  // interrupts), so a task fills idle gaps in pieces; pick the core on which
  // it would start first (with one core, no choice to make).
  if (cores_.size() == 1) return on_the_core(at, d);
  const sc_time now = ssdtlm::sim_time();
  size_t best = 0;
  sc_time best_start;
  for (size_t i = 0; i < cores_.size(); ++i) {
    cores_[i].retire(now);
    static const sc_time kTick(1, sc_core::SC_PS);
    const sc_time s = cores_[i].find(at, kTick);
    if (i == 0 || s < best_start) best = i, best_start = s;
  }
  if (!tracks_.empty()) tracks_[best]->label(Activity::Firmware);
  return cores_[best].fill(at, d);
}

sc_time ControllerCpu::execute(const sc_time& at, uint64_t cycles, uint64_t then) {
  if (cores_.size() > 1 || cycles == 0 || then == 0) return execute(execute(at, cycles), then);
  cycles_ += cycles + then;
  // (Each step's time from its own cycles, as two calls would round them.)
  return on_the_core(at, cycle_time_(cycles) + cycle_time_(then));
}

sc_time ControllerCpu::on_the_core(const sc_time& at, const sc_time& d) {
  cores_[0].retire(ssdtlm::sim_time());
  if (!tracks_.empty()) tracks_[0]->label(Activity::Firmware);
  return cores_[0].fill(at, d);
}

void ControllerCpu::trace(std::vector<ActivityTrack*> cores) {
  tracks_ = std::move(cores);
  for (size_t i = 0; i < cores_.size(); ++i) cores_[i].observe(tracks_.at(i));
}

sc_time ControllerCpu::busy_until() const {
  sc_time t = sc_core::SC_ZERO_TIME;
  for (const auto& c : cores_) t = std::max(t, c.busy_until());
  return t;
}

double ControllerCpu::utilisation(const sc_time& elapsed) const {
  if (elapsed == sc_core::SC_ZERO_TIME) return 0.0;
  sc_time busy;
  for (const auto& c : cores_) busy += c.busy();
  return busy / elapsed / double(cores_.size());
}

}  // namespace ssd
