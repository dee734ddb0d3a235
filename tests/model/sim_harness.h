#pragma once
// Runs one simulation in-process from CLI-style options and returns its JSON
// report. One per test process (SystemC elaborates once).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "model/sim/options.h"
#include "model/sim/simulation.h"

namespace ssdtest {

// Options as the CLI would parse `args`.
inline ssd::Options parse(std::vector<std::string> args) {
  args.insert(args.begin(), "ssdsim");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return ssd::Options::parse(int(argv.size()), argv.data());
}

inline nlohmann::json simulate(std::vector<std::string> args, ssd::SimConfig* used = nullptr) {
  const ssd::Options opts = parse(std::move(args));
  if (used) *used = opts.config();
  ssd::Simulation sim(opts.config());
  sim.run();
  return sim.report();
}

// Picoseconds of `bytes` at `rate` bytes/s, rounded as the kernel's 1 ps
// resolution rounds them.
inline uint64_t ps_xfer(double bytes, double rate) { return uint64_t(bytes / rate * 1e12 + 0.5); }
inline uint64_t ps_cycles(double cycles, double hz) { return uint64_t(cycles / hz * 1e12 + 0.5); }

}  // namespace ssdtest
