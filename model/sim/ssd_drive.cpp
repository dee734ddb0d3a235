#include "model/sim/ssd_drive.h"

#include <string>

namespace ssd {

SsdDrive::SsdDrive(sc_core::sc_module_name name, const SimConfig& cfg)
    : sc_module(name), sata("sata", cfg.sata), controller("controller", cfg), dram("dram", cfg.dram) {
  sata.controller.bind(controller.host);
  sata.set_capacity(controller.user_bytes());
  if (cfg.store_data) sata.store_data(cfg.nand.geometry.page_size);
  controller.dram.bind(dram.socket);
  for (uint32_t c = 0; c < cfg.nand.geometry.channels; ++c) {
    channels.push_back(std::make_unique<NandChannel>(("channel" + std::to_string(c)).c_str(), cfg.nand));
    controller.flash.bind(channels.back()->socket);
  }
}

}  // namespace ssd
