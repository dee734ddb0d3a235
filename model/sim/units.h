#pragma once
// Values with units, as users write them: sizes (4k, 8g, 512B), times (50us,
// 3ms), rates (40MB/s) and clocks (200MHz). A missing or unknown unit is an
// error: "4096" could mean bytes, sectors or pages, so the user must say.
//
// Sizes follow fio: k, m, g, t (and KB, KiB, ...) are powers of 1024; B is
// bytes. Rates follow storage datasheets: KB/s, MB/s, GB/s are powers of
// 1000, KiB/s, MiB/s, GiB/s powers of 1024.
// Each parser returns "" on success or the reason it failed.

#include <cstdint>
#include <string>

namespace ssd::units {

std::string parse_size(const std::string& text, uint64_t& bytes);
std::string parse_seconds(const std::string& text, double& seconds);
std::string parse_rate(const std::string& text, double& bytes_per_second);
std::string parse_frequency(const std::string& text, double& hz);

}  // namespace ssd::units
