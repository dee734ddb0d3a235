#pragma once
// The DRAM user-data write cache (Indilinx Barefoot style write-back): a
// write is acknowledged once its pages sit in DRAM; each page's slot is held
// until its destage program on NAND completes. When every slot is held, a
// new write waits for the earliest destage to finish, so a full cache turns
// into NAND-speed writes. Plain C++: times are inputs, not simulated here.

#include <systemc>

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ssd {

using sc_core::sc_time;

class WriteCache {
 public:
  // `dies`: the NAND dies a destage program may run on (slots are kept per
  // die, in release order: a suspension moves one die's programs).
  explicit WriteCache(uint64_t capacity_pages, uint32_t dies = 1)
      : capacity_(capacity_pages), dies_(size_t(dies) + 1) {}

  bool enabled() const { return capacity_ > 0; }
  uint64_t capacity() const { return capacity_; }
  // Earliest time >= at that a slot is free; the slot is then held (its
  // release time not yet known) until the matching insert().
  sc_time admit(const sc_time& at);
  // The held slot holds page `lpn` (its data tagged `tag`, for content
  // checks) until `release`, when its destage program on die `die`
  // completes (`die` past the last: not known, never postponed).
  void insert(uint32_t lpn, const sc_time& release, uint64_t tag = 0, uint32_t die = 0);
  // TRIM: the cached copy no longer answers reads (its slot stays held
  // until its destage completes).
  void forget(uint32_t lpn) { resident_.erase(lpn); }
  struct Entry {
    uint64_t tag;  // the data's tag
    uint64_t seq;  // which insert() put it there (its slot's)
  };
  // The newest copy of `lpn` if it is still in DRAM at `now`, else null.
  // `now` is the simulated time: it never goes back from one call to the
  // next (the slots released by then are let go here).
  const Entry* holds(uint32_t lpn, const sc_time& now);
  // nand.suspend: for each (from, to) of `moves` (distinct `from`s, latest
  // first, each `to` later than its `from`), the destage programs on die
  // `die` that were to end at `from` end at `to`: their slots are held that
  // much longer.
  void postpone(uint32_t die, const std::vector<std::pair<sc_time, sc_time>>& moves);
  // When everything written so far is on flash (FLUSH CACHE waits for it).
  const sc_time& drained_at() const { return drained_; }
  uint64_t hits() const { return hits_; }
  void count_hit() { ++hits_; }

 private:
  // A slot knows the insert() that filled it, so that when it is released
  // it can tell whether it held the page's newest copy (whose entry then
  // goes). A suspension moves the slot's release, never its entry: under
  // read storms with deep destage queues, a look-up of each moved slot's
  // entry was most of the run.
  struct Slot {
    sc_time release;
    uint32_t lpn;
    uint64_t seq;
  };
  void release_until(const sc_time& t);
  // The earliest release of a slot held (slots_ > 0).
  sc_time earliest() const;

  uint64_t capacity_;
  // Per die (and a last one for slots of no known die), the slots in release
  // order. A suspension moves the programs after the suspended one on its
  // die, in order, so their slots are a run of that die's list, found by one
  // search and moved in place. (A single list ordered by release time, with
  // each matching slot's die looked up, took a search and a re-insertion
  // per slot moved: a read storm suspending deep destage queues ran 100x
  // slower than without suspension.)
  std::vector<std::deque<Slot>> dies_;
  uint64_t slots_ = 0;           // slots in dies_
  sc_time next_release_;         // no slot is released before this (a bound; exact after release_until)
  std::unordered_map<uint32_t, Entry> resident_;  // lpn -> its newest copy, while its slot is held
  uint64_t inserts_ = 0;
  uint64_t held_ = 0;  // admitted, not yet inserted
  sc_time room_from_;  // the latest release a page waited for (admit)
  sc_time drained_;
  uint64_t hits_ = 0;
};

}  // namespace ssd
