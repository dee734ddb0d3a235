#include "model/sim/units.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <map>

namespace ssd::units {

namespace {

// Split "12.5MB/s" into 12.5 and "MB/s".
std::string split(const std::string& text, double& number, std::string& unit) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const char* begin = text.data() + i;
  const char* end = text.data() + text.size();
  if (begin < end && *begin == '-') return "negative value '" + text + "'";
  auto [p, ec] = std::from_chars(begin, end, number);
  if (ec != std::errc() || !std::isfinite(number)) return "not a number: '" + text + "'";
  unit.assign(p, end);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.back()))) unit.pop_back();
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.front()))) unit.erase(0, 1);
  return "";
}

std::string with_unit(const std::string& text, const std::map<std::string, double>& units, const char* kind,
                      const char* examples, double& out) {
  double n;
  std::string unit;
  if (auto e = split(text, n, unit); !e.empty()) return e;
  if (unit.empty()) return std::string(kind) + " '" + text + "' needs a unit (" + examples + ")";
  auto it = units.find(unit);
  if (it == units.end()) return "unknown unit '" + unit + "' in '" + text + "' (" + examples + ")";
  out = n * it->second;
  return "";
}

}  // namespace

std::string parse_size(const std::string& text, uint64_t& bytes) {
  static const std::map<std::string, double> u{
      {"B", 1}, {"b", 1},
      {"k", 1024.0}, {"K", 1024.0}, {"KB", 1024.0}, {"KiB", 1024.0}, {"kB", 1024.0},
      {"m", 1048576.0}, {"M", 1048576.0}, {"MB", 1048576.0}, {"MiB", 1048576.0},
      {"g", 1073741824.0}, {"G", 1073741824.0}, {"GB", 1073741824.0}, {"GiB", 1073741824.0},
      {"t", 1099511627776.0}, {"T", 1099511627776.0}, {"TB", 1099511627776.0}, {"TiB", 1099511627776.0}};
  double v;
  if (auto e = with_unit(text, u, "size", "B, k, m, g, t", v); !e.empty()) return e;
  if (v != std::floor(v)) return "size '" + text + "' is not a whole number of bytes";
  if (v >= 18446744073709551615.0) return "size '" + text + "' is too large";
  bytes = static_cast<uint64_t>(v);
  return "";
}

std::string parse_seconds(const std::string& text, double& seconds) {
  static const std::map<std::string, double> u{{"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"µs", 1e-6},
                                              {"ms", 1e-3}, {"s", 1.0}, {"min", 60.0}};
  return with_unit(text, u, "time", "ns, us, ms, s", seconds);
}

std::string parse_rate(const std::string& text, double& bytes_per_second) {
  static const std::map<std::string, double> u{
      {"B/s", 1}, {"KB/s", 1e3}, {"kB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9},
      {"KiB/s", 1024.0}, {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0}};
  if (auto e = with_unit(text, u, "rate", "B/s, KB/s, MB/s, GB/s, MiB/s", bytes_per_second); !e.empty()) return e;
  if (bytes_per_second <= 0) return "rate '" + text + "' must be positive";
  return "";
}

std::string parse_frequency(const std::string& text, double& hz) {
  static const std::map<std::string, double> u{{"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
  if (auto e = with_unit(text, u, "frequency", "Hz, kHz, MHz, GHz", hz); !e.empty()) return e;
  if (hz <= 0) return "frequency '" + text + "' must be positive";
  return "";
}

}  // namespace ssd::units
