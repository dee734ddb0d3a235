// AddressSanitizer's view of the main stack, put right after the SystemC
// kernel returns.
//
// SystemC 2.3.4 tells ASan when it switches between its coroutine stacks,
// but the bounds it hands back for the main stack are not the main stack's:
// after sc_start returns, ASan believes the main thread's stack ends inside
// a coroutine stack. An exception thrown on the main stack from then on
// (every bad-input error found during a run is one) makes ASan skip the
// unpoisoning it does before unwinding ("ignoring requested
// __asan_handle_no_return"), and the stale redzones of the unwound frames
// are then reported as a stack-buffer-underflow in whatever destructor runs
// next. Announcing a switch from the main stack onto itself, with its true
// bounds, puts ASan right. Without ASan this is nothing.
//
// The kernel's annotations of a switch into a process are at times stale as
// well: a process resumes while ASan still holds the bounds of the process
// before it (seen with check.content's mismatch thrown in a host slot). An
// exception thrown there makes ASan skip the same unpoisoning, and a landing
// pad's unpoisoning call then trips over the thrower's stale redzones. So a
// process that may throw knows its own stack (ProcessStack, made at its
// entry; the model spawns its processes with the kernel's default stack
// size) and announces it after each resume, before the work that may throw.
#pragma once

#include <cstddef>

namespace ssd {

// Call on the main thread after each sc_start() returns.
void resync_sanitizer_main_stack();

// A process's own stack: construct first thing in the process's function
// (QuickThreads starts a process within a page of its stack's top).
class ProcessStack {
 public:
  ProcessStack();
  // After the kernel resumed this process: ASan's view of the current stack
  // is this one. Without ASan this is nothing.
  void resync() const;

 private:
  const void* bottom_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace ssd
