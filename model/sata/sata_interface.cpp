#include "model/sata/sata_interface.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "tlm/ssd_protocol.h"

namespace ssd {

using ssdtlm::HostCommand;
using ssdtlm::HostOp;

class SataInterface::WriteData final : public ssdtlm::WriteDataLink {
 public:
  // `start`: when the command FIS is through (no Data FIS before it).
  WriteData(SataInterface& sata, HostCommand& cmd, const sc_time& start) : sata_(sata), cmd_(cmd), end_(start) {
    cmd.arrived.clear();
  }
  sc_time deliver(uint64_t end, const sc_time& not_before) override {
    end = std::min(end, cmd_.bytes);
    // Each FIS after the one before it, when the link is free. (The time
    // the drive held back a FIS the link could have taken is counted.)
    if (booked_ < end && not_before > end_) {
      sata_.data_held_ += not_before - end_;
      end_ = not_before;
    }
    while (booked_ < end) {
      const uint64_t n = std::min(ssdtlm::kDataFisBytes, cmd_.bytes - booked_);
      const sc_time xfer = sata_.transfer_time_(n) + sata_.cfg_.fis_overhead;
      end_ = sata_.link_.book(end_, xfer) + xfer;
      booked_ += n;
      cmd_.arrived.push_back({booked_, end_});
    }
    // The arrival of the FIS holding byte end - 1 (FISes are whole
    // kDataFisBytes from the command's first byte; asked for now or before).
    return end ? cmd_.arrived[(end - 1) / ssdtlm::kDataFisBytes].at : end_;
  }
  bool all_booked() const { return booked_ == cmd_.bytes; }

 private:
  SataInterface& sata_;
  HostCommand& cmd_;
  uint64_t booked_ = 0;
  sc_time end_;
};

SataInterface::SataInterface(sc_core::sc_module_name name, const SataConfig& cfg)
    : sc_module(name), host("host"), controller("controller"), cfg_(cfg), transfer_time_(cfg.payload_rate()) {
  host.register_b_transport(this, &SataInterface::b_transport);
}

void SataInterface::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  // A plain payload's command rides down to the firmware as a HostCommand
  // attached for the duration of this call (the firmware reads only that).
  HostCommand* ext = trans.get_extension<HostCommand>();
  HostCommand plain;
  plain.postponable = false;  // lives for this call only
  if (!ext && !plain_command(trans, plain)) return;
  struct Attached {
    tlm::tlm_generic_payload& trans;
    HostCommand* cmd;
    ~Attached() {
      if (cmd) trans.clear_extension(cmd);
    }
  } attached{trans, ext ? nullptr : &plain};
  if (!ext) trans.set_extension(&plain);
  HostCommand& cmd = ext ? *ext : plain;

  if (cmd.ncq_tag >= cfg_.ncq_depth) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);  // no such NCQ tag
    return;
  }
  // Written as "fits in what is left after the offset": offset + bytes may wrap.
  if (capacity_ && cmd.op != HostOp::Flush && (cmd.offset >= capacity_ || cmd.bytes > capacity_ - cmd.offset)) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);  // beyond the last LBA
    return;
  }
  ++commands_;
  const sc_time now = ssdtlm::sim_time();
  link_.retire(now);
  const sc_time arrival = now + delay;
  constexpr uint64_t kNone = ssdtlm::PageData::kUnmapped;
  if (rec_) {
    rec_->begin_command();
    rec_->sata_link()->label(Activity::Command);
  }
  const sc_time fis = link_.book(arrival, cfg_.cmd_overhead);
  sc_time t = fis + cfg_.cmd_overhead;
  if (rec_) rec_->sata_link()->label(Activity::Data, false, kNone, ActivityTrack::kNoPage, cmd.bytes);
  std::optional<WriteData> data;
  if (cmd.op == HostOp::Write) {
    data.emplace(*this, cmd, t);
    if (paced_)
      cmd.data_link = &*data;  // the drive asks for the data
    else
      t = data->deliver(cmd.bytes, t);  // Data FISes in order, each when the link is free
  }

  delay = t - now;
  controller->b_transport(trans, delay);
  if (data) {
    cmd.data_link = nullptr;
    // A drive that answered without asking for all of the data has lost the
    // rest: a defect of the drive model, not of the host's command.
    if (!data->all_booked() && trans.is_response_ok())
      throw std::logic_error("SATA flow control: the drive completed a write without taking all of its data");
  }
  // The delay comes back relative to the time of return (a disk waits inside).
  t = ssdtlm::sim_time() + delay;

  if (rec_) rec_->sata_link()->label(Activity::Data, false, kNone, ActivityTrack::kNoPage, cmd.bytes);
  if (cmd.op == HostOp::Read) t = std::max(t, stream_read_data(cmd));
  delay = t - ssdtlm::sim_time();
  if (rec_) rec_->end_command(cmd, arrival, t);
  if (store_ && trans.is_response_ok()) move_data(trans, cmd);
}

bool SataInterface::plain_command(tlm::tlm_generic_payload& trans, HostCommand& cmd) {
  const tlm::tlm_command c = trans.get_command();
  if (c == tlm::TLM_IGNORE_COMMAND) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);  // the base protocol's no-op
    return false;
  }
  if (trans.get_byte_enable_ptr()) {  // a disk moves whole ranges
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  if (trans.get_streaming_width() < trans.get_data_length()) {  // no FIFO-style bursts
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  if (trans.get_data_length() == 0) {  // ATA has no zero-length read or write
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return false;
  }
  cmd.op = c == tlm::TLM_READ_COMMAND ? HostOp::Read : HostOp::Write;
  cmd.offset = trans.get_address();
  cmd.bytes = trans.get_data_length();
  cmd.ncq_tag = 0;
  return true;
}

void SataInterface::move_data(tlm::tlm_generic_payload& trans, const HostCommand& cmd) {
  // The built-in host sends no data (null pointer): it only times commands.
  unsigned char* data = trans.get_data_ptr();
  const uint64_t n = std::min<uint64_t>(cmd.bytes, trans.get_data_length());
  switch (cmd.op) {
    case HostOp::Write:
      if (data) store_->write(cmd.offset, data, n);
      break;
    case HostOp::Read:
      if (data) store_->read(cmd.offset, data, n);
      break;
    case HostOp::Trim:
      store_->zero(cmd.offset, cmd.bytes);
      break;
    case HostOp::Flush:
      break;
  }
}

sc_time SataInterface::stream_read_data(const HostCommand& cmd) {
  // Data FISes go out in LBA order, each once the data it carries is in
  // DRAM; the completion (Set Device Bits) follows the last one.
  sc_time end = sc_core::SC_ZERO_TIME;
  size_t piece = 0;
  for (uint64_t at = 0; at < cmd.bytes; at += ssdtlm::kDataFisBytes) {
    const uint64_t n = std::min(ssdtlm::kDataFisBytes, cmd.bytes - at);
    sc_time ready = end;
    // Pieces overlapping [at, at + n): skip those that end before it.
    while (piece < cmd.ready.size() && cmd.ready[piece].end <= at) ++piece;
    for (size_t p = piece; p < cmd.ready.size(); ++p) {
      ready = std::max(ready, cmd.ready[p].at);
      if (cmd.ready[p].end >= at + n) break;
    }
    const sc_time xfer = transfer_time_(n) + cfg_.fis_overhead;
    end = link_.book(ready, xfer) + xfer;
  }
  return end;
}

double SataInterface::utilisation(const sc_time& elapsed) const {
  return elapsed == sc_core::SC_ZERO_TIME ? 0.0 : link_.busy() / elapsed;
}

}  // namespace ssd
