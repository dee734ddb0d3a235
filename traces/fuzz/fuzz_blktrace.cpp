// libFuzzer target: the blktrace reader on arbitrary bytes, read as one file
// and, split in two at a point chosen by the first byte, as the two per-CPU
// files of a NAME prefix (which exercises the k-way merge).
#include "traces/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace trace_fuzz;
  const std::string dir = scratch_dir();
  write_bytes(dir + "/single.bin", data, size);
  drain(dir + "/single.bin", "blktrace");
  if (size > 1) {
    size_t cut = 1 + (size - 1) * data[0] / 256;
    write_bytes(dir + "/pair.blktrace.0", data + 1, cut - 1);
    write_bytes(dir + "/pair.blktrace.1", data + cut, size - cut);
    drain(dir + "/pair", "blktrace");
  }
  return 0;
}
