#pragma once
// An independent reference for write amplification under random writes,
// shared by the page-FTL tests: a plain simulation of the GC policies,
// written apart from the plug-in.
#include <cstdint>
#include <deque>
#include <vector>

#include "model/sim/random.h"

namespace ssd::reftest {

// Write amplification. The reference: one pool of blocks, one write frontier
// shared by host and GC data, GC whenever fewer than two blocks are free, the
// victim chosen by a plain scan (greedy: fewest valid; random: uniform among
// the blocks with an invalid page) or a queue of closed blocks (fifo: the
// first closed). A different structure from the plug-in (per-die pools,
// buckets, split frontiers, incremental GC), the same policies.
enum class Ref { Greedy, Fifo, Random };

inline double reference_wa(Ref policy, uint64_t blocks, uint32_t ppb, uint64_t user_pages, uint64_t writes, uint64_t warmup,
                    uint64_t seed) {
  std::vector<int64_t> l2p(user_pages, -1), p2l(blocks * ppb, -1);
  std::vector<uint32_t> valid(blocks, 0);
  std::deque<uint64_t> free_list, closed;  // closed: in the order they filled
  for (uint64_t b = 0; b < blocks; ++b) free_list.push_back(b);
  uint64_t frontier = UINT64_MAX, next = ppb;
  uint64_t flash_writes = 0, host_writes = 0;
  Random pick(seed + 1);
  auto append = [&](uint64_t l) {
    if (next == ppb) {
      if (frontier != UINT64_MAX) closed.push_back(frontier);
      frontier = free_list.front();
      free_list.pop_front();
      next = 0;
    }
    const uint64_t p = frontier * ppb + next++;
    p2l[p] = int64_t(l);
    l2p[l] = int64_t(p);
    ++valid[frontier];
    ++flash_writes;
  };
  auto gc = [&] {
    size_t at = 0;  // position in `closed`
    if (policy == Ref::Greedy) {
      for (size_t i = 1; i < closed.size(); ++i)
        if (valid[closed[i]] < valid[closed[at]]) at = i;
    } else if (policy == Ref::Random) {
      std::vector<size_t> reclaimable;
      for (size_t i = 0; i < closed.size(); ++i)
        if (valid[closed[i]] < ppb) reclaimable.push_back(i);
      at = reclaimable[pick.below(reclaimable.size())];
    }
    const uint64_t victim = closed[at];
    closed.erase(closed.begin() + std::ptrdiff_t(at));
    for (uint32_t i = 0; i < ppb; ++i) {
      const int64_t l = p2l[victim * ppb + i];
      if (l < 0) continue;
      p2l[victim * ppb + i] = -1;
      --valid[victim];
      append(uint64_t(l));
    }
    free_list.push_back(victim);
  };
  auto write = [&](uint64_t l) {
    if (l2p[l] >= 0) {
      p2l[uint64_t(l2p[l])] = -1;
      --valid[uint64_t(l2p[l]) / ppb];
    }
    if (next == ppb)
      while (free_list.size() < 2) gc();
    append(l);
    ++host_writes;
  };
  for (uint64_t l = 0; l < user_pages; ++l) write(l);
  Random rng(seed);
  for (uint64_t i = 0; i < warmup; ++i) write(rng.below(user_pages));
  flash_writes = host_writes = 0;
  for (uint64_t i = 0; i < writes; ++i) write(rng.below(user_pages));
  return double(flash_writes) / double(host_writes);
}

}  // namespace ssd::reftest
