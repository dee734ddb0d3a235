#pragma once
// The hybrid FTL tests' small drive and FTL parameters (hybrid_ftl_test.cpp,
// hybrid_stripe_test.cpp).
#include "model/ftl/ftl.h"
#include "model/nand/geometry.h"

namespace ssd::hybrid_test {

// 1 die x 16 blocks x 4 pages, 25% spare: 64 / 1.25 = 51 user pages, so 13
// logical blocks (the last one of 3 pages) and 16 - 13 = 3 spare blocks,
// room for 2 log blocks (one spare block stays for a full merge's copy).
inline FlashGeometry tiny() {
  FlashGeometry g;
  g.channels = 1, g.dies_per_channel = 1, g.planes_per_die = 1, g.blocks_per_plane = 16, g.pages_per_block = 4;
  return g;
}

inline ftl::FtlParams params(const FlashGeometry& g, double log_blocks, bool idle_merge = true,
                             double op = 0.25, double stripe = 1, bool interleave = false) {
  ftl::FtlParams p;
  p.geometry = g;
  p.over_provisioning = op;
  p.options.number["ftl.log_blocks"] = log_blocks;
  p.options.number["ftl.hybrid.idle_merge"] = idle_merge ? 1 : 0;
  p.options.number["ftl.hybrid.stripe"] = stripe;
  p.options.number["ftl.hybrid.interleave"] = interleave ? 1 : 0;
  return p;
}

}  // namespace ssd::hybrid_test
