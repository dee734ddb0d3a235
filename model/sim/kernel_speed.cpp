#include "model/sim/kernel_speed.h"
#include "model/sim/sanitizer_stack.h"

#include <systemc>

#include <chrono>

namespace ssd {
namespace {

struct PingPong : sc_core::sc_module {
  sc_core::sc_event ping, pong;
  uint64_t left;
  SC_HAS_PROCESS(PingPong);
  PingPong(sc_core::sc_module_name n, uint64_t rounds) : sc_module(n), left(rounds / 2) {
    SC_THREAD(a);
    SC_THREAD(b);
  }
  void a() {
    const sc_core::sc_time ns(1, sc_core::SC_NS);
    while (left > 0) {
      ping.notify(ns);
      sc_core::wait(pong);
    }
    sc_core::sc_stop();
  }
  void b() {
    const sc_core::sc_time ns(1, sc_core::SC_NS);
    for (;;) {
      sc_core::wait(ping);
      --left;
      pong.notify(ns);
    }
  }
};

}  // namespace

KernelSpeed measure_kernel_speed(uint64_t notifications) {
  PingPong p("kernel_speed", notifications);
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  const uint64_t d0 = sc_core::sc_delta_count();
  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  resync_sanitizer_main_stack();
  KernelSpeed k;
  k.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  k.notifications = notifications / 2 * 2;
  k.delta_cycles = sc_core::sc_delta_count() - d0;
  return k;
}

}  // namespace ssd
