#pragma once
// A hard-disk drive: the same SATA interface as the SSD in front of a disk.
//
//   host ==> sata.host  sata.controller ==> disk.host

#include <systemc>

#include "model/hdd/hdd_disk.h"
#include "model/sata/sata_interface.h"
#include "model/sim/config.h"

namespace ssd {

class HddDrive : public sc_core::sc_module {
 public:
  SataInterface sata;
  HddDisk disk;

  HddDrive(sc_core::sc_module_name name, const SimConfig& cfg) : sc_module(name), sata("sata", cfg.sata), disk("disk", cfg.disk) {
    sata.controller.bind(disk.host);
    sata.set_capacity(disk.user_bytes());
  }
};

}  // namespace ssd
