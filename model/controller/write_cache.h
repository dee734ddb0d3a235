#pragma once
// The DRAM user-data write cache (Indilinx Barefoot style write-back): a
// write is acknowledged once its pages sit in DRAM; each page's slot is held
// until its destage program on NAND completes. When every slot is held, a
// new write waits for the earliest destage to finish, so a full cache turns
// into NAND-speed writes. Plain C++: times are inputs, not simulated here.

#include <systemc>

#include <cstdint>
#include <functional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ssd {

using sc_core::sc_time;

class WriteCache {
 public:
  explicit WriteCache(uint64_t capacity_pages) : capacity_(capacity_pages) {}

  bool enabled() const { return capacity_ > 0; }
  uint64_t capacity() const { return capacity_; }
  // Earliest time >= at that a slot is free; the slot is then held (its
  // release time not yet known) until the matching insert().
  sc_time admit(const sc_time& at);
  // The held slot holds page `lpn` (its data tagged `tag`, for content
  // checks) until `release` (its program completes).
  void insert(uint32_t lpn, const sc_time& release, uint64_t tag = 0);
  // TRIM: the cached copy no longer answers reads (its slot stays held
  // until its destage completes).
  void forget(uint32_t lpn) { resident_.erase(lpn); }
  struct Entry {
    sc_time release;  // when its destage completes
    uint64_t tag;     // the data's tag
  };
  // The newest copy of `lpn` if it is still in DRAM at `now`, else null.
  const Entry* holds(uint32_t lpn, const sc_time& now) const;
  // nand.suspend: for each (from, to) of `moves` (distinct `from`s, latest
  // first, each `to` later than its `from`), the destage programs that were
  // to end at `from`, of the pages `on_die` picks, end at `to`: their slots
  // are held that much longer.
  void postpone(const std::vector<std::pair<sc_time, sc_time>>& moves, const std::function<bool(uint32_t)>& on_die);
  // When everything written so far is on flash (FLUSH CACHE waits for it).
  const sc_time& drained_at() const { return drained_; }
  uint64_t hits() const { return hits_; }
  void count_hit() { ++hits_; }

 private:
  void release_until(const sc_time& t);

  using Slot = std::pair<sc_time, uint32_t>;  // release time, lpn
  uint64_t capacity_;
  // Ordered, not a heap (a page may hold two slots: a rewrite while its
  // destage runs): postpone() finds the slots released at one time
  // directly (a read storm under nand.suspend moves thousands of bookings,
  // each a postpone).
  std::multiset<Slot> slots_;
  // postpone()'s scratch: the moving slots, taken out of slots_ and put
  // back with their new time (no allocation per slot or per call).
  std::vector<std::pair<std::multiset<Slot>::node_type, sc_time>> moving_;
  std::unordered_map<uint32_t, Entry> resident_;  // lpn -> its newest copy
  uint64_t held_ = 0;  // admitted, not yet inserted
  sc_time drained_;
  uint64_t hits_ = 0;
};

}  // namespace ssd
