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
#pragma once

namespace ssd {

// Call on the main thread after each sc_start() returns.
void resync_sanitizer_main_stack();

}  // namespace ssd
