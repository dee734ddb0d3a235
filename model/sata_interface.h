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

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "model/config.h"
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

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_time& delay);
  // Book the read data's Data FISes on the link; returns when the last ends.
  sc_time stream_read_data(const ssdtlm::HostCommand& cmd);

  SataConfig cfg_;
  ssdtlm::Timeline link_;
  uint64_t commands_ = 0;
};

}  // namespace ssd
