#pragma once
// `ssdsim --kernel-speed`: how fast this machine runs the SystemC kernel
// itself, so that benchmark figures compare across machines
// (scripts/bench). Two processes wake each other through timed event
// notifications (1 ns apart), the cheapest thing a timed model can ask of
// the kernel; the rate of those round trips, and of the kernel's evaluation
// rounds (delta cycles), is the machine's kernel speed. A run's own
// `device.kernel.delta_cycles` per IO, times this rate's inverse, is its
// cost in machine-independent units.

#include <cstdint>

namespace ssd {

struct KernelSpeed {
  uint64_t notifications = 0;  // timed event notifications delivered
  uint64_t delta_cycles = 0;   // kernel evaluation rounds they took
  double wall_s = 0;
};

// Elaborates two processes and runs `notifications` ping-pongs (one
// elaboration per process: call it instead of building a Simulation).
KernelSpeed measure_kernel_speed(uint64_t notifications);

}  // namespace ssd
