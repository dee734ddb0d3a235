#pragma once
// The page FTL's bulk writes on several threads (bulk_writes.cpp): what one
// thread keeps of its own while it serves its dies' share of a batch.
// Internal to the page FTL (page_ftl.cpp counts and maps through it).

#include <cstdint>
#include <exception>
#include <utility>
#include <vector>

#include "model/ftl/page/page_ftl.h"

namespace ssd::ftl {

// LPN -> PPN for the pages a thread took over from another thread's dies
// in the current batch: open addressing with linear probing, sized for the
// batch (a few hundred KB, so it stays in the core's cache). An entry whose
// page the thread has since given up holds kNone. Cleared with the batch.
class PendingMap {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  explicit PendingMap(size_t most = 0) { reserve(most); }
  void reserve(size_t most) {
    size_t n = 16;
    while (n < 2 * most) n *= 2;
    slots_.assign(n, Slot{}), used_.clear();
    seen_.assign(n * 4 / 64, 0);  // four filter bits a slot
  }
  uint32_t* find(uint32_t lpn) {
    // Most look-ups (every GC move's) are of pages not here: a bit per
    // slot's worth of LPNs, in a few KB, answers them without the probe.
    if (!(seen_[filter(lpn) / 64] >> (filter(lpn) % 64) & 1)) return nullptr;
    for (size_t i = slot(lpn);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].lpn == lpn) return &slots_[i].ppn;
      if (slots_[i].lpn == kNone) return nullptr;
    }
  }
  // Set lpn's entry to ppn; returns the old one (kNone if there was none).
  uint32_t set(uint32_t lpn, uint32_t ppn) {
    size_t i = slot(lpn);
    while (slots_[i].lpn != lpn && slots_[i].lpn != kNone) i = (i + 1) & (slots_.size() - 1);
    if (slots_[i].lpn == kNone) {
      slots_[i].lpn = lpn, used_.push_back(uint32_t(i));
      seen_[filter(lpn) / 64] |= uint64_t(1) << (filter(lpn) % 64);
    }
    return std::exchange(slots_[i].ppn, ppn);
  }
  // Every (lpn, ppn) still held, then empty again.
  template <class F>
  void drain(F each) {
    for (uint32_t i : used_) {
      if (slots_[i].ppn != kNone) each(slots_[i].lpn, slots_[i].ppn);
      seen_[filter(slots_[i].lpn) / 64] = 0;
      slots_[i] = Slot{};
    }
    used_.clear();
  }

 private:
  struct Slot {
    uint32_t lpn = kNone, ppn = kNone;
  };
  size_t slot(uint32_t lpn) const { return (uint64_t(lpn) * 0x9E3779B97F4A7C15ull >> 32) & (slots_.size() - 1); }
  size_t filter(uint32_t lpn) const { return (uint64_t(lpn) * 0xC2B2AE3D27D4EB4Full >> 32) & (seen_.size() * 64 - 1); }
  std::vector<Slot> slots_;
  std::vector<uint64_t> seen_;  // the filter
  std::vector<uint32_t> used_;  // slots taken, for drain()
};

struct alignas(64) PageFtl::Lane {  // (a cache line of its own: each thread writes its lane all the time)
  FtlStats stats;
  uint64_t victims = 0, victim_valid = 0;
  uint64_t programs = 0;  // pages programmed so far in the current write (GC moves, then the host page)
  uint32_t write = 0;     // the current write's index in the batch
  // Blocks closed in the batch: block, then (write index << 32) + programs
  // before the close in that write (closed_at_ is that write's seq_ plus these).
  std::vector<std::pair<uint32_t, uint64_t>> closes;
  // The writes it placed: index in the batch, pages programmed in it.
  std::vector<std::pair<uint32_t, uint32_t>> placed;
  PendingMap pending;
  FtlWork work;
  std::exception_ptr error;

  // l2p_[lpn] = ppn for a page this thread holds: its pending entry if it
  // took the page over in this batch, else the table (no other thread
  // writes that entry in this batch).
  void map(BigTable<uint32_t>& l2p, uint32_t lpn, uint32_t ppn) {
    if (uint32_t* v = pending.find(lpn))
      *v = ppn;
    else
      l2p[lpn] = ppn;
  }
};

}  // namespace ssd::ftl
