#include "model/sata_interface.h"

#include "tlm/ssd_protocol.h"

namespace ssd {

using ssdtlm::HostCommand;
using ssdtlm::HostOp;

SataInterface::SataInterface(sc_core::sc_module_name name, const SataConfig& cfg)
    : sc_module(name), host("host"), controller("controller"), cfg_(cfg) {
  host.register_b_transport(this, &SataInterface::b_transport);
}

void SataInterface::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  HostCommand& cmd = *trans.get_extension<HostCommand>();
  if (cmd.ncq_tag >= cfg_.ncq_depth) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);  // no such NCQ tag
    return;
  }
  ++commands_;
  const sc_time now = sc_core::sc_time_stamp();
  link_.retire(now);
  const sc_time fis = link_.book(now + delay, cfg_.cmd_overhead);
  cmd.device_start = fis;
  sc_time t = fis + cfg_.cmd_overhead;
  const sc_time data = ssdtlm::transfer_time(cmd.bytes, cfg_.payload_rate());
  if (cmd.op == HostOp::Write) t = link_.book(t, data) + data;

  delay = t - now;
  controller->b_transport(trans, delay);
  t = now + delay;

  if (cmd.op == HostOp::Read) t = link_.book(t, data) + data;
  delay = t - now;
}

double SataInterface::utilisation(const sc_time& elapsed) const {
  return elapsed == sc_core::SC_ZERO_TIME ? 0.0 : link_.busy() / elapsed;
}

}  // namespace ssd
