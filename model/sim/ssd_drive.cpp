#include "model/sim/ssd_drive.h"

#include <string>

namespace ssd {

namespace {
void add_channels(const SimConfig& cfg, Controller& controller, std::vector<std::unique_ptr<NandChannel>>& channels) {
  for (uint32_t c = 0; c < cfg.nand.geometry.channels; ++c) {
    channels.push_back(std::make_unique<NandChannel>(("channel" + std::to_string(c)).c_str(), cfg.nand));
    controller.flash.bind(channels.back()->socket);
  }
}
}  // namespace

SsdMember::SsdMember(sc_core::sc_module_name name, const SimConfig& cfg)
    : sc_module(name), controller("controller", cfg), dram("dram", cfg.dram) {
  controller.dram.bind(dram.socket);
  add_channels(cfg, controller, channels);
}

SsdDrive::SsdDrive(sc_core::sc_module_name name, const SimConfig& cfg)
    : sc_module(name), sata("sata", cfg.sata), controller("controller", cfg), dram("dram", cfg.dram) {
  controller.dram.bind(dram.socket);
  add_channels(cfg, controller, channels);
  if (cfg.raid.members > 1) {
    raid = std::make_unique<RaidFrontend>("raid", cfg.raid, cfg.nand.host_page(), cfg.nand.suspend);
    sata.controller.bind(raid->host);
    raid->member.bind(controller.host);
    for (uint32_t m = 1; m < cfg.raid.members; ++m) {
      extra.push_back(std::make_unique<SsdMember>(("member" + std::to_string(m)).c_str(), cfg));
      raid->member.bind(extra.back()->controller.host);
    }
  } else {
    sata.controller.bind(controller.host);
    // sata.flow_control paces only a write cache: write-through firmware,
    // the RAID-0 chip (whose members then see whole sub-commands) and a disk
    // take a write's data as it comes, as without it.
    sata.pace_writes(cfg.sata.flow_control && controller.write_cache().enabled());
  }
  sata.set_capacity(user_bytes());
  if (cfg.store_data) sata.store_data(cfg.nand.host_page());
}

void SsdDrive::trace(ActivityRecorder& rec) {
  sata.trace(&rec);
  dram.trace(rec.dram_port());
  std::vector<ActivityTrack*> cores;
  for (uint32_t c = 0; c < controller.cpu().cores(); ++c) cores.push_back(rec.cpu_core(c));
  controller.cpu().trace(std::move(cores));
  for (uint32_t c = 0; c < channels.size(); ++c) {
    std::vector<ActivityTrack*> dies, suspended;
    for (uint32_t d = 0; d < channels[c]->dies(); ++d) {
      dies.push_back(rec.die(c, d));
      if (ActivityTrack* reads = rec.die_suspended_reads(c, d)) suspended.push_back(reads);
    }
    channels[c]->trace(rec.channel_bus(c), std::move(dies), std::move(suspended));
  }
}

}  // namespace ssd
