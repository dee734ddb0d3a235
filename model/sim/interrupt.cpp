#include "model/sim/interrupt.h"

#include <unistd.h>

#include <csignal>
#include <ctime>

namespace ssd {

namespace {
volatile std::sig_atomic_t received = 0;
timespec first_at{};  // when the first signal came

double since(const timespec& t) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return double(now.tv_sec - t.tv_sec) + 1e-9 * double(now.tv_nsec - t.tv_nsec);
}

// (Only async-signal-safe calls here: clock_gettime, write, signal, raise.)
extern "C" void on_signal(int sig) {
  if (received == 0) {
    received = sig;
    clock_gettime(CLOCK_MONOTONIC, &first_at);
    static const char msg[] =
        "\nssdsim: interrupted: stopping at the next completed IO to write the report (again to quit at once)\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
    return;
  }
  // A second signal within a second is the same interrupt delivered twice
  // (timeout(1) and some job runners signal the process and its group).
  if (since(first_at) < 1.0) return;
  std::signal(sig, SIG_DFL);  // the user means it: end now, the default way
  std::raise(sig);
}
}  // namespace

void catch_interrupts() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : {SIGINT, SIGTERM}) sigaction(sig, &sa, nullptr);
}

int interrupt_signal() { return received; }

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

Interrupted::Interrupted(const std::string& where)
    : std::runtime_error(std::string("interrupted by ") + signal_name(interrupt_signal()) + " " + where) {}

}  // namespace ssd
