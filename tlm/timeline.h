#pragma once
// A reservation calendar for one hardware resource (a SATA link, a CPU core,
// a DRAM port, a NAND channel bus, a NAND die).
//
// Why a calendar: the model is loosely timed (b_transport with annotated
// delays), so a transaction reserves every resource it crosses at the moment
// it reaches it, possibly in the simulated future. A calendar of busy
// intervals lets a later-issued transaction use an earlier gap (e.g. a short
// read slotting in on a link ahead of a long read still in tR), so contention
// comes out of the reservations and not from closed-form queueing formulas.
// Placement is earliest-fit: the resource serves requests in the order they
// are reserved, each at the first gap that fits it.

#include <systemc>
#include <vector>

namespace ssdtlm {

using sc_core::sc_time;

// Told of every reservation (activity tracing, model/sim/activity.h). A
// timeline has none by default, which costs one pointer test per reserve().
class TimelineObserver {
 public:
  virtual ~TimelineObserver() = default;
  virtual void reserved(const sc_time& start, const sc_time& end) = 0;
};

class Timeline {
 public:
  // Where a search stopped: lets the call that follows at the same time
  // (first_conflict_end, reserve, fill) skip its own search. Valid only
  // until the calendar next changes (a NAND operation checks its die and bus
  // with several calls before reserving).
  struct Position {
    size_t index = 0;
  };

  // Report every reservation from now on to `o` (null: stop).
  void observe(TimelineObserver* o) { observer_ = o; }
  // First start >= `at` of a free gap at least `duration` long; `pos`, for
  // the calls that follow at that start.
  sc_time find(const sc_time& at, const sc_time& duration, Position& pos) const {
    if (at >= last_end_) {  // past every reservation (the common case): no search
      pos.index = busy_list_.size();
      return at;
    }
    return find_from(at, duration, first_ending_after(at), pos.index);
  }
  sc_time find(const sc_time& at, const sc_time& duration) const {
    Position pos;
    return find(at, duration, pos);
  }
  // Mark [start, start + duration) busy; the caller has checked it is free
  // (first_conflict_end(start, end) == start). `pos`: from find() at this start.
  void reserve(const sc_time& start, const sc_time& duration);
  void reserve(const sc_time& start, const sc_time& duration, const Position& pos);
  // find() then reserve(); returns the start.
  sc_time book(const sc_time& at, const sc_time& duration);
  // Preemptible work (firmware on a core): run `duration` of work from `at`
  // in whatever gaps are free, in pieces; returns when the last piece ends.
  // Unlike book(), a long task never leaves a short gap idle. `pos`: from
  // fill_end() at this `at`.
  sc_time fill(const sc_time& at, const sc_time& duration);
  sc_time fill(const sc_time& at, const sc_time& duration, const Position& pos);
  // When fill() would finish, without reserving anything; `pos`, for fill().
  sc_time fill_end(const sc_time& at, const sc_time& duration, Position& pos) const {
    pos.index = at >= last_end_ ? busy_list_.size() : first_ending_after(at);
    return fill_end_at(at, duration, pos.index);
  }
  // fill_end() where `pos` is from an earlier fill_end() at or before `at`
  // and the calendar has not changed since: the search goes on from there
  // (a search that moves forward in time, as the NAND channel's does).
  sc_time fill_end_resuming(const sc_time& at, const sc_time& duration, Position& pos) const {
    pos.index = at >= last_end_ ? busy_list_.size() : first_ending_after(pos.index, at);
    return fill_end_at(at, duration, pos.index);
  }
  sc_time fill_end(const sc_time& at, const sc_time& duration) const {
    Position pos;
    return fill_end(at, duration, pos);
  }
  // End of the first reservation overlapping [start, end); `start` if none.
  // `pos`: from find() at this start.
  sc_time first_conflict_end(const sc_time& start, const sc_time& end) const {
    return first_conflict_end(start, end, Position{first_ending_after(start)});
  }
  sc_time first_conflict_end(const sc_time& start, const sc_time& end, const Position& pos) const {
    return pos.index < busy_list_.size() && busy_list_[pos.index].start < end ? busy_list_[pos.index].end : start;
  }
  // End of the last reservation overlapping [start, end); `start` if none.
  // `pos`: from find() at this start; if there is one, it becomes the
  // position of its end, for find_resuming() there. (For a search that may
  // resume after everything its failed try ran into: the NAND channel.)
  sc_time last_conflict_end(const sc_time& start, const sc_time& end, Position& pos) const {
    size_t i = pos.index;
    if (i >= busy_list_.size() || busy_list_[i].start >= end) return start;
    if (i + 1 < busy_list_.size() && busy_list_[i + 1].start < end) i = last_starting_before(i + 1, end);
    pos.index = i + 1;  // (the intervals are disjoint and never touch: the next one ends after this end)
    return busy_list_[i].end;
  }
  // find() where `pos` already holds the first reservation ending after `at`
  // (as last_conflict_end() leaves it): no search for it.
  sc_time find_resuming(const sc_time& at, const sc_time& duration, Position& pos) const {
    if (at >= last_end_) {
      pos.index = busy_list_.size();
      return at;
    }
    return find_from(at, duration, pos.index, pos.index);
  }
  // Forget intervals that ended at or before `now`: nothing can be placed
  // before the current simulated time, so they only cost search time.
  // (Inline: called for every access, it mostly finds nothing to do.)
  void retire(const sc_time& now) {
    if (head_ < busy_list_.size() && busy_list_[head_].end <= now) retire_ended(now);
  }

  // Sum of all reserved durations (for utilisation = busy / elapsed).
  const sc_time& busy() const { return busy_; }
  // End of the latest reservation ever made (zero if none).
  const sc_time& busy_until() const { return last_end_; }

 private:
  struct Interval {
    sc_time start, end;
  };
  // First index in live range whose end is > t.
  size_t first_ending_after(const sc_time& t) const;
  // The same from index `from` on (no interval before it ends after t): a
  // galloping search, as the answer is usually near.
  size_t first_ending_after(size_t from, const sc_time& t) const;
  // The last index from `from` on whose interval starts before t (the one
  // at `from` does): a galloping search, as the answer is usually near.
  size_t last_starting_before(size_t from, const sc_time& t) const;
  // The two galloping searches: the last index from `from` on where
  // `holds(interval)` (it does at `from`, and once false stays false).
  template <typename Holds>
  size_t last_holding(size_t from, Holds holds) const;
  // find() past the fast path, from interval i (the first ending after
  // `at`); `next`: the index of the first interval after the gap found
  // (where reserve() would place it).
  sc_time find_from(const sc_time& at, const sc_time& duration, size_t i, size_t& next) const;
  // The earliest-fit walk from interval i (t: the candidate start) up to
  // position `stop`: true at the first gap that fits `duration` (i is the
  // interval after it), else i == stop and t the end of the last walked.
  bool walk(size_t& i, size_t stop, sc_time& t, const sc_time& duration) const;
  // find_from() past its first kGapBlock intervals: `t` the end of interval
  // i - 1 (out of line: rarely reached).
  [[gnu::noinline]] sc_time find_far(sc_time t, const sc_time& duration, size_t i, size_t& next) const;
  // reserve() and fill() with `i` the position of `start` (`at`).
  void reserve_at(const sc_time& start, const sc_time& duration, size_t i);
  sc_time fill_at(const sc_time& at, const sc_time& duration, size_t i);
  // fill_end() with `i` the position of `at` (the list's size past the last reservation).
  sc_time fill_end_at(const sc_time& at, const sc_time& duration, size_t i) const;
  // reserve() of [start, end) before the interval at index `i` (the first
  // live one ending after `start`), start < last_end_; returns the index of
  // the interval that now holds it.
  size_t reserve_before(size_t i, const sc_time& start, const sc_time& end);
  // reserve_before()'s two moves: interval i - 1 (just extended to meet i)
  // and i become one, or `iv` goes in before i; both return its index. The
  // shorter side of the live range moves (the earlier one into or out of
  // the dead slots before head_).
  size_t join(size_t i);
  size_t insert(size_t i, const Interval& iv);
  // Move `count` entries from position `from` to `to` (ranges may overlap).
  void shift(size_t from, size_t to, size_t count);
  void retire_ended(const sc_time& now);
  // The list changed at position i: the gap index no longer holds from its block on.
  void touched(size_t i) {
    if (i / kGapBlock < gaps_valid_) gaps_valid_ = i / kGapBlock;
  }
  // Bring the gap index up to date over the full blocks of the list.
  [[gnu::noinline]] void index_gaps() const;

  // The live intervals are maximal: two reservations that touch are one
  // entry (what the searches see depends on it, for a zero-length find).
  std::vector<Interval> busy_list_;  // sorted, disjoint; [head_, size) are live
  size_t head_ = 0;
  sc_time busy_ = sc_core::SC_ZERO_TIME;
  sc_time last_end_ = sc_core::SC_ZERO_TIME;
  TimelineObserver* observer_ = nullptr;
  // The gap index: for each block of kGapBlock list positions, the longest
  // gap before an interval of it (start minus the previous interval's end);
  // level L has blocks of kGapBlock^(L+1) positions. find() skips the
  // largest block whose longest gap is too short, so a search behind a deep
  // queue of bookings with many small gaps (GC work booked ahead on a die)
  // is not a walk over every one. A cache: rebuilt from the first changed
  // block when a search has walked past a few blocks.
  static constexpr size_t kGapBlock = 16;
  mutable std::vector<std::vector<sc_time>> gap_levels_;
  mutable size_t gaps_valid_ = 0;  // level-0 blocks [0, gaps_valid_) are up to date (and the levels above them)
};

}  // namespace ssdtlm
