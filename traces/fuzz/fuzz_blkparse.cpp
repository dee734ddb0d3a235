// libFuzzer target: the blkparse reader on arbitrary bytes.
#include "traces/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return trace_fuzz::fuzz_text_reader("blkparse", data, size);
}
