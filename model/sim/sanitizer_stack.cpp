#include "model/sim/sanitizer_stack.h"

#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <unistd.h>

#include <systemc>

#include <sanitizer/common_interface_defs.h>
#endif

namespace ssd {

void resync_sanitizer_main_stack() {
#if defined(__SANITIZE_ADDRESS__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* bottom = nullptr;
  size_t size = 0;
  const bool known = pthread_attr_getstack(&attr, &bottom, &size) == 0;
  pthread_attr_destroy(&attr);
  if (!known || !bottom || !size) return;
  void* fake_stack = nullptr;  // the detect_stack_use_after_return stack, kept across the switch
  __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

ProcessStack::ProcessStack() {
#if defined(__SANITIZE_ADDRESS__)
  // The stack's top is the page boundary above this frame; its size the
  // kernel's default for a thread, in whole pages, as the kernel maps it.
  const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
  const auto top = (std::uintptr_t(__builtin_frame_address(0)) + page - 1) & ~(page - 1);
  size_ = (std::size_t(sc_core::SC_DEFAULT_STACK_SIZE) + page - 1) & ~(page - 1);
  bottom_ = reinterpret_cast<const void*>(top - size_);
#endif
}

void ProcessStack::resync() const {
#if defined(__SANITIZE_ADDRESS__)
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, bottom_, size_);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

}  // namespace ssd
