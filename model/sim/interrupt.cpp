#include "model/sim/interrupt.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <ctime>

namespace ssd {

namespace {
volatile std::sig_atomic_t received = 0;
volatile std::sig_atomic_t running = 0;  // between catch_interrupts() and run_stopped()
unsigned grace_s = 5;
timespec first_at{};  // when the first signal came
char forced_paths[kForcedFiles][4096];  // remove_if_forced(): empty if none

// The signal ends the process the default way, first removing the files the
// run created and has not written.
void end_by(int sig) {
  for (const char* path : forced_paths)
    if (path[0]) unlink(path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

double since(const timespec& t) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return double(now.tv_sec - t.tv_sec) + 1e-9 * double(now.tv_nsec - t.tv_nsec);
}

void say(const char* msg, size_t n) { [[maybe_unused]] const ssize_t w = ::write(STDERR_FILENO, msg, n); }

// (Only async-signal-safe calls in the handlers: clock_gettime, write,
// alarm, unlink, signal, raise.)
extern "C" void on_signal(int sig) {
  if (received == 0) {
    received = sig;
    clock_gettime(CLOCK_MONOTONIC, &first_at);
    static const char msg[] =
        "\nssdsim: interrupted: stopping at the next completed IO to write the report (again to quit at once)\n";
    say(msg, sizeof msg - 1);
    if (running) alarm(grace_s);  // a run that completes nothing in time ends anyway (on_alarm)
    return;
  }
  // A second signal within a second is the same interrupt delivered twice
  // (timeout(1) and some job runners signal the process and its group).
  if (since(first_at) < 1.0) return;
  end_by(sig);  // the user means it: end now
}

// The grace after the first signal ran out with the run still going.
extern "C" void on_alarm(int) {
  static const char msg[] = "ssdsim: nothing completed in the grace after the interrupt: quitting without a report\n";
  say(msg, sizeof msg - 1);
  end_by(received);
}
}  // namespace

void catch_interrupts(unsigned grace_seconds) {
  grace_s = grace_seconds;
  struct sigaction sa {};
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, nullptr);
  sa.sa_handler = on_signal;
  for (int sig : {SIGINT, SIGTERM}) sigaction(sig, &sa, nullptr);
  running = 1;
}

void remove_if_forced(ForcedFile slot, const std::string& path) {
  char* const forced = forced_paths[slot];
  forced[0] = '\0';  // (never a half-copied path: the first byte goes last)
  if (path.empty() || path.size() >= sizeof forced_paths[slot]) return;
  std::memcpy(forced + 1, path.c_str() + 1, path.size());
  std::atomic_signal_fence(std::memory_order_seq_cst);  // (the handler sees the copy before the first byte)
  forced[0] = path[0];
}

void run_stopped() {
  running = 0;
  alarm(0);
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
