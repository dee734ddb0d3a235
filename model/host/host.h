#pragma once
// The host: an AHCI-like adapter with up to `iodepth` NCQ slots (one SC_THREAD
// each). A free slot takes the next request from the IoSource, waits for its
// arrival time if it has one, sends the command down the SATA socket and
// waits for the completion. A request that arrives while every slot is busy
// waits in the host queue; that wait is reported apart from device time.
//
// FLUSH CACHE is not an NCQ command: the host stops queueing, lets the
// commands already queued complete, issues the FLUSH alone, and queues
// nothing more until it completes (requests behind it wait in the host).
//
// An exception in a slot (a firmware bug, a failed content check) stops the
// simulation; Simulation::run rethrows it after the kernel returns.
//
// Several streams (fio jobs) may share the drive: each has its own source and
// its own slots, and its completions carry the stream's index.
//
// Queue depth beyond NCQ: a slot is an outstanding request of the host; it
// needs one of the drive's `ncq_depth` NCQ tags to issue, and waits in the
// host queue (slat) while all are taken. Host-side costs: each command takes
// `cmd_overhead` and each completion `irq_overhead` of the one host CPU (a
// calendar like the drive's resources), so small IOs pay what the OS and
// AHCI driver cost them; both count in the latency the host sees (clat).

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <deque>
#include <exception>
#include <functional>
#include <vector>

#include "model/host/io_source.h"
#include "model/host/latency_stats.h"
#include "model/sim/config.h"
#include "tlm/timeline.h"

namespace ssd {

class ProcessStack;

class ContentShadow;

struct OpStats {
  LatencyStats lat;    // arrival -> completion (fio lat)
  LatencyStats clat;   // start -> completion: device service time (fio clat)
  LatencyStats slat;   // arrival -> start: host-queue wait (fio slat)
  uint64_t bytes = 0;
};

// Why the host stopped issuing.
enum class StopReason { SourceDone, Runtime, TimeLimit, Error, PowerCut, Interrupted };
const char* to_string(StopReason r);

// One stream of requests: its source, its NCQ slots and when it stops.
struct HostStream {
  IoSource* source = nullptr;
  uint32_t iodepth = 1;
  sc_time runtime = sc_core::SC_ZERO_TIME;  // stop issuing at this simulated time (zero: no limit)
};

class Host : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Host> socket;

  // Simulated time a run may reach: SystemC's 64-bit picosecond clock ends
  // at about 1.8e7 s; stopping well before keeps every sum exact.
  static constexpr double kTimeLimitSeconds = 1e7;

  // `runtime`: stop issuing at this simulated time (zero: no limit).
  // `shadow`: check every read against what was written (null: no checks).
  Host(sc_core::sc_module_name name, IoSource& source, uint32_t iodepth, sc_time runtime,
       ContentShadow* shadow = nullptr, const HostConfig& hc = {});
  // Streams share the drive and its NCQ tags.
  Host(sc_core::sc_module_name name, const std::vector<HostStream>& streams, ContentShadow* shadow = nullptr,
       const HostConfig& hc = {});

  void on_completion(std::function<void(const IoCompletion&)> f) { observer_ = std::move(f); }
  // Called once, when every slot has stopped for good (the workload is done
  // and its last command completed, or an error stopped the run).
  void on_finished(std::function<void()> f) { finished_ = std::move(f); }
  const OpStats& stats(ssdtlm::HostOp op) const { return stats_[size_t(op)]; }
  // Time the last request completed.
  sc_time last_completion() const { return last_completion_; }
  uint64_t completed() const { return completed_; }
  uint64_t errors() const { return errors_; }
  StopReason stop_reason() const { return stop_; }
  // The power was cut (powerfail.at): if the workload had not ended, that
  // is why the host stopped (the simulation does not run past the cut).
  void power_cut() {
    if (running_slots_ > 0 && stop_ == StopReason::SourceDone) stop_ = StopReason::PowerCut;
  }
  // The user interrupted the run (model/sim/interrupt.h): the simulation
  // stops at once; commands in flight are not completed.
  void interrupt() {
    if (stop_ == StopReason::Interrupted || stop_ == StopReason::Error) return;
    stop_ = StopReason::Interrupted;
    sc_core::sc_stop();
  }
  // The exception that stopped the run, if any.
  std::exception_ptr failure() const { return failure_; }

 private:
  struct TagWaiter;
  void slot(uint32_t stream);
  // One command through the drive; returns false when the slot should stop.
  bool serve(uint32_t stream, tlm::tlm_generic_payload& trans, ssdtlm::HostCommand& cmd, HostRequest& req,
             TagWaiter& me, const ProcessStack& stack);
  // Wait for `cost` of the host CPU from now (nothing when zero).
  void host_cpu(const sc_time& cost);
  void stop(StopReason why);

  std::vector<HostStream> streams_;
  ContentShadow* shadow_;
  HostConfig hc_;
  uint32_t free_tags_ = 0;  // NCQ tags not in use, one bit each (ncq_depth <= 32)
  // Requests beyond NCQ wait in the host queue in arrival order: a freed
  // tag goes straight to the longest waiter (a shared wake-up would let the
  // completing slot take it again at once and starve the queue).
  struct TagWaiter {
    sc_core::sc_event handed;
    uint32_t tag = 0;
  };
  std::deque<TagWaiter*> tag_queue_;
  ssdtlm::Timeline host_cpu_;
  std::array<OpStats, 4> stats_;
  std::function<void(const IoCompletion&)> observer_;
  std::function<void()> finished_;
  uint32_t running_slots_ = 0;
  sc_time last_completion_ = sc_core::SC_ZERO_TIME;
  uint64_t completed_ = 0, errors_ = 0;
  // Non-queued FLUSH: while `flushing_`, no slot takes a new request;
  // `outstanding_` counts requests taken and not yet completed.
  bool flushing_ = false;
  uint32_t outstanding_ = 0;
  sc_core::sc_event idle_, flush_done_;
  StopReason stop_ = StopReason::SourceDone;
  std::exception_ptr failure_;
};

}  // namespace ssd
