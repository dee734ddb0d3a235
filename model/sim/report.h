#pragma once
// The human-readable summary printed after a run. The JSON report itself is
// built by Simulation::report(); its schema is documented in docs/report.md.

#include <cstdio>

#include <nlohmann/json.hpp>

namespace ssd {

void print_summary(std::FILE* out, const nlohmann::json& report);

}  // namespace ssd
