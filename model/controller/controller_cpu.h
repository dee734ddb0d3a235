#pragma once
// The controller's embedded cores (ARM7/ARM9-class): firmware steps are
// charged here as cycles at the core clock, on whichever core is free first.
// A step runs in the core's idle gaps (tasks interleave, as in an event-loop
// firmware), so the core never idles while work is pending. Requests queue for the cores, so a slow core shows up as both
// longer latency and a lower IOPS ceiling.

#include <systemc>

#include <vector>

#include "model/sim/activity.h"
#include "model/sim/config.h"
#include "tlm/ssd_protocol.h"
#include "tlm/timeline.h"

namespace ssd {

class ControllerCpu : public sc_core::sc_module {
 public:
  ControllerCpu(sc_core::sc_module_name name, const CpuConfig& cfg);

  // Run `cycles` of firmware no earlier than `at`; returns when they finish.
  sc_time execute(const sc_time& at, uint64_t cycles);
  // Two steps back to back (`cycles`, then `then` from its end): with one
  // core, one task (the same times as two calls, as a task fills the core's
  // gaps in order, but one reservation); with more, each step on the core
  // free first.
  sc_time execute(const sc_time& at, uint64_t cycles, uint64_t then);

  double utilisation(const sc_time& elapsed) const;
  // When the last firmware work booked so far ends.
  sc_time busy_until() const;
  uint64_t cycles_run() const { return cycles_; }
  uint32_t cores() const { return static_cast<uint32_t>(cores_.size()); }
  // Record each core's work on a track (--vcd, --activity).
  void trace(std::vector<ActivityTrack*> cores);

 private:
  // One core: `d` of firmware from `at` in its gaps; returns when it ends.
  sc_time on_the_core(const sc_time& at, const sc_time& d);

  CpuConfig cfg_;
  ssdtlm::RateTimes cycle_time_;  // cycles -> time at the core clock
  std::vector<ssdtlm::Timeline> cores_;
  uint64_t cycles_ = 0;
  std::vector<ActivityTrack*> tracks_;  // empty unless traced
};

}  // namespace ssd
