#pragma once
// The drive: SATA interface -> controller (firmware on the CPU, FTL) ->
// DRAM buffer and N NAND channels, wired with TLM-2.0 sockets.
//
//   host ==> sata.host  sata.controller ==> controller.host
//            controller.dram  ==> dram.socket
//            controller.flash ==> channel[0..N-1].socket
//
// With raid.members = N > 1, a RAID-0 front-end sits between the SATA
// interface and N such SSDs (model/raid/raid_frontend.h): member 0 is the
// controller, dram and channels below; members 1..N-1 are `extra` (named
// member1, member2, ...), so a single SSD keeps its names and results.
//
//   sata.controller ==> raid.host  raid.member[m] ==> member m's controller.host

#include <systemc>

#include <memory>
#include <vector>

#include "model/sim/config.h"
#include "model/controller/controller.h"
#include "model/controller/dram_buffer.h"
#include "model/nand/nand_channel.h"
#include "model/raid/raid_frontend.h"
#include "model/sata/sata_interface.h"

namespace ssd {

// One complete SSD behind the RAID front-end (members 1..N-1).
class SsdMember : public sc_core::sc_module {
 public:
  Controller controller;
  DramBuffer dram;
  std::vector<std::unique_ptr<NandChannel>> channels;
  SsdMember(sc_core::sc_module_name name, const SimConfig& cfg);
};

class SsdDrive : public sc_core::sc_module {
 public:
  SataInterface sata;
  Controller controller;  // member 0 (the only one without RAID)
  DramBuffer dram;
  std::vector<std::unique_ptr<NandChannel>> channels;
  std::unique_ptr<RaidFrontend> raid;                // raid.members > 1 only
  std::vector<std::unique_ptr<SsdMember>> extra;     // members 1..N-1

  SsdDrive(sc_core::sc_module_name name, const SimConfig& cfg);
  // Record every resource's work (--vcd, --activity); during elaboration.
  void trace(ActivityRecorder& rec);

  uint32_t members() const { return uint32_t(extra.size()) + 1; }
  Controller& member_controller(uint32_t m) { return m ? extra[m - 1]->controller : controller; }
  const Controller& member_controller(uint32_t m) const { return m ? extra[m - 1]->controller : controller; }
  const DramBuffer& member_dram(uint32_t m) const { return m ? extra[m - 1]->dram : dram; }
  const std::vector<std::unique_ptr<NandChannel>>& member_channels(uint32_t m) const {
    return m ? extra[m - 1]->channels : channels;
  }
  // The host's user capacity: one SSD's, or the RAID's whole stripes.
  uint64_t user_bytes() const { return raid ? raid->capacity(controller.user_bytes()) : controller.user_bytes(); }
};

}  // namespace ssd
