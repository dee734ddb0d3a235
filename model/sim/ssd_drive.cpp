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

namespace ssd {

void SsdDrive::trace(ActivityRecorder& rec) {
  sata.trace(&rec);
  dram.trace(rec.dram_port());
  std::vector<ActivityTrack*> cores;
  for (uint32_t c = 0; c < controller.cpu().cores(); ++c) cores.push_back(rec.cpu_core(c));
  controller.cpu().trace(std::move(cores));
  for (uint32_t c = 0; c < channels.size(); ++c) {
    std::vector<ActivityTrack*> dies;
    for (uint32_t d = 0; d < channels[c]->dies(); ++d) dies.push_back(rec.die(c, d));
    channels[c]->trace(rec.channel_bus(c), std::move(dies));
  }
}

}  // namespace ssd
