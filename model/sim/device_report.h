#pragma once
// The SSD's part of the report's `device` section (docs/report.md): one
// controller with its FTL, DRAM and NAND channels; and, with RAID-0, the
// members' sections combined into the drive's totals.

#include <systemc>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/controller/controller.h"
#include "model/controller/dram_buffer.h"
#include "model/nand/nand_channel.h"

namespace ssd {

// FTL, capacity, write amplification, GC, wear, and each resource's work;
// utilisation over `active` (the time the drive was active).
nlohmann::json ssd_member_report(const Controller& ctl, const DramBuffer& dram,
                                 const std::vector<std::unique_ptr<NandChannel>>& channels, const SimConfig& cfg,
                                 const sc_core::sc_time& active);

// The drive of several members: counts summed, write amplification from
// the sums, wear over every block, channels and dies listed with their
// member, CPU and DRAM utilisation averaged; `members[]` keeps each one's.
nlohmann::json raid_totals(const std::vector<nlohmann::json>& members);

}  // namespace ssd
