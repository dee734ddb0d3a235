#include "model/sim/sanitizer_stack.h"

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>

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

}  // namespace ssd
