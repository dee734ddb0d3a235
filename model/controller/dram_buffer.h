#pragma once
// The DRAM buffer: one port of `dram.bandwidth` with an access latency. It
// holds the FTL's mapping table and staged user data (and the write cache
// when configured). The port is busy while data moves; the latency (row
// activation + CAS) delays the answer without blocking other accesses.

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "model/sim/activity.h"
#include "model/sim/config.h"
#include "tlm/ssd_protocol.h"
#include "tlm/timeline.h"

namespace ssd {

class DramBuffer : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<DramBuffer> socket;

  DramBuffer(sc_core::sc_module_name name, const DramConfig& cfg);

  double utilisation(const sc_time& elapsed) const;
  sc_time busy_until() const { return port_.busy_until(); }
  uint64_t bytes_moved() const { return bytes_; }
  uint64_t accesses() const { return accesses_; }
  // Record the port's work on a track (--vcd, --activity).
  void trace(ActivityTrack* port) {
    track_ = port;
    port_.observe(port);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_time& delay);

  DramConfig cfg_;
  ssdtlm::RateTimes transfer_time_;  // bytes -> time at the port's bandwidth
  ssdtlm::Timeline port_;
  uint64_t bytes_ = 0, accesses_ = 0;
  ActivityTrack* track_ = nullptr;  // null unless traced
};

}  // namespace ssd
