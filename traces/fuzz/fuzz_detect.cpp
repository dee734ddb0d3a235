// libFuzzer target: format detection, then the detected reader, on
// arbitrary bytes.
#include "traces/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace trace_fuzz;
  const std::string path = scratch_dir() + "/input.detect";
  write_bytes(path, data, size);
  std::string format;
  try {
    format = traces::detect_format(path);
  } catch (const traces::TraceError&) {
    return 0;
  }
  drain(path, format.c_str());
  return 0;
}
