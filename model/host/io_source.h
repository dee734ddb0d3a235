#pragma once
// Where the host's requests come from: a synthetic fio-style workload or a
// replayed trace. The host pulls one request whenever an NCQ slot is free.

#include <systemc>

#include <cstdint>
#include <string>

#include "tlm/ssd_protocol.h"

namespace ssd {

using sc_core::sc_time;

struct HostRequest {
  uint64_t id = 0;
  ssdtlm::HostOp op = ssdtlm::HostOp::Read;
  uint64_t offset = 0;  // bytes
  uint64_t bytes = 0;
  // Open loop (trace, timed): when the request arrives at the host queue.
  // Closed loop: unset, the request arrives when a slot takes it.
  bool timed = false;
  sc_core::sc_time arrival;
};

class IoSource {
 public:
  virtual ~IoSource() = default;
  // Next request; false when the source is exhausted. `now` is the time a
  // free NCQ slot asks.
  virtual bool next(HostRequest& req, const sc_core::sc_time& now) = 0;
  virtual std::string describe() const = 0;
};

// One completed IO, as the host saw it.
struct IoCompletion {
  HostRequest request;
  sc_core::sc_time arrival, start, completion;  // start: the command left the host queue
  uint32_t stream = 0;                          // which host stream (fio job) issued it
  uint64_t data_tag = 0;                        // a write's data tag (check.content; else 0)
};

}  // namespace ssd
