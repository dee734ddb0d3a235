#pragma once
// The fully specified drive of the exact-timing tests and the step costs
// derived from its parameters, in picoseconds (the kernel's resolution).
#include <algorithm>
#include <string>
#include <vector>

#include "tests/model/sim_harness.h"

namespace ssdtest {

// A drive whose every parameter the expected values name explicitly.
inline std::vector<std::string> drive(std::vector<std::string> extra) {
  std::vector<std::string> a{
      "--nand.channels=8",        "--nand.dies_per_channel=4", "--nand.planes_per_die=1",
      "--nand.blocks_per_plane=64", "--nand.pages_per_block=64", "--nand.page_size=4k",
      "--nand.t_read=50us",       "--nand.t_prog=900us",       "--nand.t_erase=2ms",
      "--nand.channel_rate=40MB/s", "--dram.size=64m",         "--dram.bandwidth=666MB/s",
      "--dram.latency=60ns",      "--dram.map_entry=4B",       "--cpu.cores=1",
      "--cpu.clock=200MHz",       "--cpu.cycles.decode=800",   "--cpu.cycles.complete=400",
      "--cpu.cycles.flash_op=100", "--cpu.cycles.ftl_lookup=150", "--cpu.cycles.map_update=200",
      "--sata.gen=2",             "--sata.cmd_overhead=2us",   "--ftl.op=0.25"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

constexpr double kClock = 200e6, kChannel = 40e6, kDram = 666e6, kSata = 300e6;
constexpr uint64_t kNs = 1000;  // ps per ns
const uint64_t kCmd = 2000 * kNs, kDecode = ps_cycles(800, kClock), kComplete = ps_cycles(400, kClock),
               kLookup = ps_cycles(150, kClock), kUpdate = ps_cycles(200, kClock),
               kFlashOp = ps_cycles(100, kClock), kDramLat = 60 * kNs, kTr = 50000 * kNs, kTprog = 900000 * kNs;
inline uint64_t dram(uint64_t bytes) { return kDramLat + ps_xfer(double(bytes), kDram); }
// A 4 KiB write's schedule up to the FTL (command, data over the link,
// decode, staged in DRAM), and its program on an idle die (page in, tPROG).
const uint64_t kWriteFront = kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096),
               kHostProgram = ps_xfer(4096, kChannel) + kTprog;
// The whole write-through 4 KiB write on an idle drive: FTL lookup and map
// update (one 8-byte entry pair), the flash command, the program, completion.
const uint64_t kWrite4k = kWriteFront + kLookup + kUpdate + dram(8) + kFlashOp + kHostProgram + kComplete;

}  // namespace ssdtest
