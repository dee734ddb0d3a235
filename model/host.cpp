#include "model/host.h"

#include <string>

namespace ssd {

using ssdtlm::HostCommand;

Host::Host(sc_core::sc_module_name name, IoSource& source, uint32_t iodepth, sc_time runtime)
    : Host(name, std::vector<HostStream>{HostStream{&source, iodepth, runtime}}) {}

Host::Host(sc_core::sc_module_name name, const std::vector<HostStream>& streams)
    : sc_module(name), socket("socket"), streams_(streams) {
  uint32_t tag = 0;
  for (uint32_t s = 0; s < streams_.size(); ++s)
    for (uint32_t i = 0; i < streams_[s].iodepth; ++i, ++tag)
      sc_core::sc_spawn([this, tag, s] { slot(tag, s); }, ("ncq_slot_" + std::to_string(tag)).c_str());
}

void Host::slot(uint32_t tag, uint32_t stream) {
  IoSource& source = *streams_[stream].source;
  const sc_time runtime = streams_[stream].runtime;
  tlm::tlm_generic_payload trans;
  HostCommand cmd;
  trans.set_extension(&cmd);
  HostRequest req;
  for (;;) {
    sc_time now = sc_core::sc_time_stamp();
    if (runtime != sc_core::SC_ZERO_TIME && now >= runtime) break;
    if (!source.next(req, now)) break;
    const sc_time arrival = req.timed ? req.arrival : now;
    if (arrival > now) {
      sc_core::wait(arrival - now);
      now = arrival;
    }
    cmd = HostCommand{};
    cmd.op = req.op;
    cmd.offset = req.offset;
    cmd.bytes = req.bytes;
    cmd.ncq_tag = tag;
    trans.set_command(req.op == ssdtlm::HostOp::Read    ? tlm::TLM_READ_COMMAND
                      : req.op == ssdtlm::HostOp::Write ? tlm::TLM_WRITE_COMMAND
                                                        : tlm::TLM_IGNORE_COMMAND);
    trans.set_address(req.offset);
    trans.set_data_length(static_cast<unsigned>(std::min<uint64_t>(req.bytes, UINT32_MAX)));
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(trans, delay);
    sc_core::wait(delay);
    const sc_time done = sc_core::sc_time_stamp();
    if (!trans.is_response_ok()) ++errors_;
    if (done > last_completion_) last_completion_ = done;
    ++completed_;
    OpStats& s = stats_[size_t(req.op)];
    s.lat.add(ssdtlm::to_ns(done - arrival));
    s.clat.add(ssdtlm::to_ns(done - now));
    s.slat.add(ssdtlm::to_ns(now - arrival));
    s.bytes += req.bytes;
    if (observer_) observer_(IoCompletion{req, arrival, now, done, stream});
  }
  trans.clear_extension(&cmd);
}

}  // namespace ssd
