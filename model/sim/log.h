#pragma once
// Logging: one spdlog logger per module, named after it (its SystemC
// hierarchical name), writing to stderr; every line carries the simulated
// time (%* in the pattern). Trace-level calls compile out of release builds
// (SPDLOG_ACTIVE_LEVEL), so per-IO logging costs nothing there.

#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace ssd::log {

// The logger of module `name`, created on first use at the global level.
std::shared_ptr<spdlog::logger> get(const std::string& name);

// Install the pattern with simulated time and set the level for all loggers.
void configure(const std::string& level);

}  // namespace ssd::log
