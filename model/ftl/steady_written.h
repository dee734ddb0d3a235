#pragma once
// A steady state written, but short (the `steady` phase of FTLs that settle
// quickly under uniform random overwrites: block, bast, fast): every user
// page written in order, then `overwrites` uniform random pages, each through
// the FTL's own write path with no flash timing (FtlWork::record_ops off).
#include <cstdint>
#include <functional>

#include "model/ftl/ftl.h"
#include "model/sim/random.h"

namespace ssd::ftl {

inline void fill_then_overwrite(Ftl& ftl, uint64_t seed, uint64_t overwrites,
                                const std::function<uint64_t(uint64_t)>& version) {
  FtlWork w;
  w.record_ops = false;
  const uint64_t pages = ftl.user_pages();
  for (uint64_t l = 0; l < pages; ++l) {
    w.clear();
    ftl.write(Lpn(uint32_t(l)), version(l), w);
  }
  Random rng(seed);
  for (uint64_t i = 0; i < overwrites; ++i) {
    const uint64_t l = rng.below(pages);
    w.clear();
    ftl.write(Lpn(uint32_t(l)), version(l), w);
  }
}

}  // namespace ssd::ftl
