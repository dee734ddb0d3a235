#include "model/controller/dram_buffer.h"

#include "tlm/ssd_protocol.h"

namespace ssd {

DramBuffer::DramBuffer(sc_core::sc_module_name name, const DramConfig& cfg)
    : sc_module(name), socket("socket"), cfg_(cfg), transfer_time_(cfg.bandwidth) {
  socket.register_b_transport(this, &DramBuffer::b_transport);
}

void DramBuffer::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const auto* access = trans.get_extension<ssdtlm::DramAccess>();
  const sc_time now = ssdtlm::sim_time();
  port_.retire(now);
  const sc_time xfer = transfer_time_(access->bytes);
  if (track_) track_->label(Activity::Dram, false, ssdtlm::PageData::kUnmapped, ActivityTrack::kNoPage, access->bytes);
  // The port interleaves accesses burst by burst: a long transfer (a Data
  // FIS landing, a page for the channel) moves in whatever time the port
  // has free, around short ones booked before it for later (map entries),
  // instead of waiting for a gap that holds all of it.
  const sc_time end = port_.fill(now + delay, xfer);
  bytes_ += access->bytes;
  ++accesses_;
  delay = end + cfg_.latency - now;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

double DramBuffer::utilisation(const sc_time& elapsed) const {
  return elapsed == sc_core::SC_ZERO_TIME ? 0.0 : port_.busy() / elapsed;
}

}  // namespace ssd
