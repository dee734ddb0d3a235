#include "model/sim/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <systemc>

namespace ssd::log {

namespace {
// %* : the simulated time, e.g. "1.234567 ms".
class SimTimeFlag : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg&, const std::tm&, spdlog::memory_buf_t& dest) override {
    const std::string t = sc_core::sc_time_stamp().to_string();
    dest.append(t.data(), t.data() + t.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<SimTimeFlag>(); }
};

std::unique_ptr<spdlog::formatter> formatter() {
  auto f = std::make_unique<spdlog::pattern_formatter>();
  f->add_flag<SimTimeFlag>('*').set_pattern("[%*] [%n] [%l] %v");
  return f;
}
}  // namespace

std::shared_ptr<spdlog::logger> get(const std::string& name) {
  if (auto l = spdlog::get(name)) return l;
  auto l = spdlog::stderr_color_mt(name);
  l->set_formatter(formatter());
  l->set_level(spdlog::get_level());
  return l;
}

void configure(const std::string& level) {
  spdlog::set_level(spdlog::level::from_str(level));
  spdlog::set_formatter(formatter());
}

}  // namespace ssd::log
