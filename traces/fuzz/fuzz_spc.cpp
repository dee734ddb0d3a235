// libFuzzer target: the spc reader on arbitrary bytes.
#include "traces/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return trace_fuzz::fuzz_text_reader("spc", data, size);
}
