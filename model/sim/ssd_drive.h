#pragma once
// The drive: SATA interface -> controller (firmware on the CPU, FTL) ->
// DRAM buffer and N NAND channels, wired with TLM-2.0 sockets.
//
//   host ==> sata.host  sata.controller ==> controller.host
//            controller.dram  ==> dram.socket
//            controller.flash ==> channel[0..N-1].socket

#include <systemc>

#include <memory>
#include <vector>

#include "model/sim/config.h"
#include "model/controller/controller.h"
#include "model/controller/dram_buffer.h"
#include "model/nand/nand_channel.h"
#include "model/sata/sata_interface.h"

namespace ssd {

class SsdDrive : public sc_core::sc_module {
 public:
  SataInterface sata;
  Controller controller;
  DramBuffer dram;
  std::vector<std::unique_ptr<NandChannel>> channels;

  SsdDrive(sc_core::sc_module_name name, const SimConfig& cfg);
  // Record every resource's work (--vcd, --activity); during elaboration.
  void trace(ActivityRecorder& rec);
};

}  // namespace ssd
