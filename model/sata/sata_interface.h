#pragma once
// The SATA device interface: one half-duplex link of `sata.gen` (1.5/3/6
// Gb/s line rate, 8b/10b coded: 150/300/600 MB/s of payload) with NCQ. Every
// command occupies the link for its FIS exchange (`sata.cmd_overhead`:
// Register H2D, DMA Setup, Set Device Bits), and its data occupies it at the
// payload rate: host-to-device before the firmware sees a write; device-to-
// host in Data FISes of at most 8 KiB, each as soon as the data it carries
// is in the DRAM buffer (a long read streams while its later pages are still
// in flash). The completion follows the firmware's completion step and the
// last Data FIS, whichever is later.
//
// A write's Data FISes go, by default, back to back once the command FIS is
// through, before the firmware sees the command. With `sata.flow_control`
// the drive paces them, as a SATA device does with DMA Activate: the
// firmware gets the command first and asks for its data
// (HostCommand::data_link) as its buffer has room, so a write larger than a
// full write cache crosses the link as the cache drains. A target must then
// ask for all of a write's data before it answers (else: an internal error).
//
// Payloads: the built-in host attaches a HostCommand (tlm/ssd_protocol.h)
// with its NCQ tag; TRIM and FLUSH exist only through it. A plain TLM-2.0
// payload without it is a READ or WRITE FPDMA QUEUED on NCQ tag 0: the
// operation from the TLM command, the byte offset from the address, the size
// from the data length (byte enables and streaming are refused; IGNORE does
// nothing). Either way a command beyond `set_capacity()` gets
// TLM_ADDRESS_ERROR_RESPONSE. With `store_data()` the interface keeps the
// written bytes and fills read payloads from them (model/sata/data_store.h);
// without it the data pointer is never touched.

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>

#include "model/sim/activity.h"
#include "model/sim/config.h"
#include "model/sata/data_store.h"
#include "tlm/ssd_protocol.h"
#include "tlm/timeline.h"

namespace ssd {

class SataInterface : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<SataInterface> host;          // from the host adapter
  tlm_utils::simple_initiator_socket<SataInterface> controller;  // to the firmware

  SataInterface(sc_core::sc_module_name name, const SataConfig& cfg);

  double utilisation(const sc_time& elapsed) const;
  sc_time busy_until() const { return link_.busy_until(); }
  uint64_t commands() const { return commands_; }
  // Writes' data paced by the target (sata.flow_control): set by whoever
  // wires a target that asks for it through HostCommand::data_link (SsdDrive,
  // for a controller with a write cache; others take the data as it comes).
  void pace_writes(bool on) { paced_ = on; }
  // sata.flow_control: the time writes' Data FISes waited for the drive to
  // ask for them, beyond the end of the FIS before (the decode, cache slots).
  const sc_time& data_held() const { return data_held_; }
  // The drive's user capacity in bytes; 0 (the default) checks nothing.
  void set_capacity(uint64_t bytes) { capacity_ = bytes; }
  // Keep written data, in chunks of `chunk_bytes` (--store-data).
  void store_data(uint32_t chunk_bytes) { store_ = std::make_unique<DataStore>(chunk_bytes); }
  const DataStore* data_store() const { return store_.get(); }
  // Record the link's work and each host command (--vcd, --activity).
  void trace(ActivityRecorder* rec) {
    rec_ = rec;
    link_.observe(rec->sata_link());
  }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_time& delay);
  // A write's Data FISes, booked in order from the end of its command FIS
  // (all at once, or as the drive asks under flow control).
  class WriteData;
  // Book the read data's Data FISes on the link; returns when the last ends.
  sc_time stream_read_data(const ssdtlm::HostCommand& cmd);
  // A plain payload's command; false (response status set) if it has none.
  static bool plain_command(tlm::tlm_generic_payload& trans, ssdtlm::HostCommand& cmd);
  // --store-data: the command's effect on the stored bytes.
  void move_data(tlm::tlm_generic_payload& trans, const ssdtlm::HostCommand& cmd);

  SataConfig cfg_;
  ssdtlm::RateTimes transfer_time_;  // payload bytes -> time on the link
  ssdtlm::Timeline link_;
  uint64_t commands_ = 0;
  sc_time data_held_;
  bool paced_ = false;
  uint64_t capacity_ = 0;
  std::unique_ptr<DataStore> store_;  // null unless store_data()
  ActivityRecorder* rec_ = nullptr;    // null unless traced
};

}  // namespace ssd
