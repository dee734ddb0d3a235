#pragma once
// The host: an AHCI-like adapter with up to `iodepth` NCQ slots (one SC_THREAD
// each). A free slot takes the next request from the IoSource, waits for its
// arrival time if it has one, sends the command down the SATA socket and
// waits for the completion. A request that arrives while every slot is busy
// waits in the host queue; that wait is reported apart from device time.
// Several streams (fio jobs) may share the drive: each has its own source and
// its own slots, and its completions carry the stream's index.

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <functional>
#include <vector>

#include "model/io_source.h"
#include "model/latency_stats.h"

namespace ssd {

struct OpStats {
  LatencyStats lat;    // arrival -> completion (fio lat)
  LatencyStats clat;   // start -> completion: device service time (fio clat)
  LatencyStats slat;   // arrival -> start: host-queue wait (fio slat)
  uint64_t bytes = 0;
};

// One stream of requests: its source, its NCQ slots and when it stops.
struct HostStream {
  IoSource* source = nullptr;
  uint32_t iodepth = 1;
  sc_time runtime = sc_core::SC_ZERO_TIME;  // stop issuing at this simulated time (zero: no limit)
};

class Host : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Host> socket;

  // `runtime`: stop issuing at this simulated time (zero: no limit).
  Host(sc_core::sc_module_name name, IoSource& source, uint32_t iodepth, sc_time runtime);
  // Streams share the drive; NCQ tags are numbered across them in order.
  Host(sc_core::sc_module_name name, const std::vector<HostStream>& streams);

  void on_completion(std::function<void(const IoCompletion&)> f) { observer_ = std::move(f); }
  const OpStats& stats(ssdtlm::HostOp op) const { return stats_[size_t(op)]; }
  // Time the last request completed.
  sc_time last_completion() const { return last_completion_; }
  uint64_t completed() const { return completed_; }
  uint64_t errors() const { return errors_; }

 private:
  void slot(uint32_t tag, uint32_t stream);

  std::vector<HostStream> streams_;
  std::array<OpStats, 4> stats_;
  std::function<void(const IoCompletion&)> observer_;
  sc_time last_completion_ = sc_core::SC_ZERO_TIME;
  uint64_t completed_ = 0, errors_ = 0;
};

}  // namespace ssd
