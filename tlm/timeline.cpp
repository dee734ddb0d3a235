#include "tlm/timeline.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <type_traits>

// Cost: every access to a resource goes through here (a few dozen calls per
// simulated random read, about a third of its instructions), so it is
// written for speed: one binary search per operation (book() reserves where
// find() stopped, fill() reserves as it walks, a Position carries a search
// over to the next call), branch-free, no scratch vectors, and the common
// merges inline. tests/model/timeline_test.cpp holds it to the plain first
// implementation, answer for answer.

namespace ssdtlm {

size_t Timeline::first_ending_after(const sc_time& t) const {
  // Branch-free lower bound: the outcome of each comparison is a coin toss,
  // so a conditional move beats a predicted branch. Invariant: the answer
  // lies in [p, p + len].
  const Interval* p = busy_list_.data() + head_;
  size_t len = busy_list_.size() - head_;
  if (len == 0 || p->end > t) return head_;  // (often: a search at or near now, retired up to now)
  while (len > 1) {
    const size_t half = len / 2;
    p += p[half].end <= t ? half : 0;
    len -= half;
  }
  return size_t(p - busy_list_.data()) + (p->end <= t ? 1 : 0);
}

template <typename Holds>
size_t Timeline::last_holding(size_t from, Holds holds) const {
  // Gallop: steps of 1, 2, 4, ... while it holds there, then a binary
  // search between the last two steps. Invariant: the answer lies in [lo, hi).
  const size_t n = busy_list_.size();
  size_t lo = from, step = 1;
  while (lo + step < n && holds(busy_list_[lo + step])) lo += step, step *= 2;
  size_t hi = std::min(n, lo + step);
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    (holds(busy_list_[mid]) ? lo : hi) = mid;
  }
  return lo;
}

size_t Timeline::first_ending_after(size_t from, const sc_time& t) const {
  if (from < head_) from = head_;
  if (from >= busy_list_.size() || busy_list_[from].end > t) return from;
  return last_holding(from, [&t](const Interval& iv) { return iv.end <= t; }) + 1;
}

size_t Timeline::last_starting_before(size_t from, const sc_time& t) const {
  return last_holding(from, [&t](const Interval& iv) { return iv.start < t; });
}

inline bool Timeline::walk(size_t& i, size_t stop, sc_time& t, const sc_time& duration) const {
  for (; i < stop; ++i) {
    const Interval& iv = busy_list_[i];
    if (t + duration <= iv.start) return true;
    if (iv.end > t) t = iv.end;
  }
  return false;
}

sc_time Timeline::find_from(const sc_time& at, const sc_time& duration, size_t i, size_t& next) const {
  // Most searches end within a few intervals: the plain walk over the first
  // kGapBlock of them, then the block-skipping walk (out of line).
  sc_time t = at;
  if (!walk(i, std::min(busy_list_.size(), i + kGapBlock), t, duration) && i < busy_list_.size())
    return find_far(t, duration, i, next);
  next = i;
  return t;
}

sc_time Timeline::find_far(sc_time t, const sc_time& duration, size_t i, size_t& next) const {
  const size_t n = busy_list_.size();
  size_t walked = 0;  // blocks walked past whose index was stale
  while (i < n) {  // (the walk so far has passed interval i - 1)
    // At a block's first position, t is the end of the interval before it:
    // the block's gaps are the candidates. If the longest is too short, t
    // becomes the end of its last interval; the largest such block that
    // starts here is skipped. A stale index is rebuilt once the walk has
    // passed two stale blocks.
    if (i % kGapBlock == 0) {
      if (i / kGapBlock >= gaps_valid_ && ++walked > 2) index_gaps();
      size_t skip = 0;
      for (size_t level = 0, span = kGapBlock;
           level < gap_levels_.size() && i % span == 0 && (i + span) / kGapBlock <= gaps_valid_;
           ++level, span *= kGapBlock) {
        if (gap_levels_[level][i / span] >= duration) break;
        skip = span;
      }
      if (skip) {
        i += skip;
        t = busy_list_[i - 1].end;
        continue;
      }
    }
    // The plain walk, up to the next block's first position.
    if (walk(i, std::min(n, (i / kGapBlock + 1) * kGapBlock), t, duration)) break;
  }
  next = i;
  return t;
}

void Timeline::index_gaps() const {
  const size_t n = busy_list_.size();
  size_t from = gaps_valid_;  // the first stale block of the level
  for (size_t level = 0, span = kGapBlock; n / span > 0; ++level, span *= kGapBlock, from /= kGapBlock) {
    if (gap_levels_.size() == level) gap_levels_.emplace_back();
    std::vector<sc_time>& g = gap_levels_[level];
    g.resize(n / span);
    for (size_t j = from; j < g.size(); ++j) {
      sc_time longest = sc_core::SC_ZERO_TIME;
      if (level == 0)
        for (size_t k = std::max<size_t>(j * kGapBlock, 1); k < (j + 1) * kGapBlock; ++k)
          longest = std::max(longest, busy_list_[k].start - busy_list_[k - 1].end);
      else
        for (size_t c = j * kGapBlock; c < (j + 1) * kGapBlock; ++c) longest = std::max(longest, gap_levels_[level - 1][c]);
      g[j] = longest;
    }
  }
  gaps_valid_ = n / kGapBlock;
}

void Timeline::reserve(const sc_time& start, const sc_time& duration) {
  // (The position of `start`, searched only where reserve() needs it.)
  reserve_at(start, duration, start >= last_end_ ? busy_list_.size() : first_ending_after(start));
}

void Timeline::reserve(const sc_time& start, const sc_time& duration, const Position& pos) {
  reserve_at(start, duration, pos.index);
}

inline void Timeline::reserve_at(const sc_time& start, const sc_time& duration, size_t i) {
  if (duration == sc_core::SC_ZERO_TIME) return;
  assert(start >= last_end_ || i == first_ending_after(start));
  const sc_time end = start + duration;
  if (observer_) observer_->reserved(start, end);
  busy_ += duration;
  if (start >= last_end_) {  // after every reservation: append (or extend the last live one)
    last_end_ = end;
    if (busy_list_.size() > head_ && busy_list_.back().end == start)
      busy_list_.back().end = end;  // (no gap changes: the one after the last is not indexed)
    else
      busy_list_.push_back(Interval{start, end}), touched(busy_list_.size() - 1);
    return;
  }
  reserve_before(i, start, end);
}

inline size_t Timeline::reserve_before(size_t i, const sc_time& start, const sc_time& end) {
  if (end > last_end_) last_end_ = end;
  Interval* const list = busy_list_.data();
  touched(i);  // the gap before position i changes (or the list moves from there)
  // Merge with a neighbour that touches, so back-to-back work stays one entry.
  if (i > head_ && list[i - 1].end == start) {
    list[i - 1].end = end;
    if (i < busy_list_.size() && list[i].start == end) return join(i);  // the gap is filled
    return i - 1;
  }
  if (i < busy_list_.size() && list[i].start == end) {
    list[i].start = start;
    return i;
  }
  return insert(i, Interval{start, end});
}

// An entry comes or goes in the middle: the shorter side of the live range
// moves, the earlier one into (or out of) the dead slots before head_ (most
// reservations land near now or near the end).

// The list's entries move in bulk (memmove): an Interval is two sc_times,
// each a single 64-bit value whose copy is that value's copy (sc_time.h), so
// moving the bytes moves them. (The element loop std::move compiles to for a
// type that is not trivially copyable ran at the mercy of its code
// alignment: 10 % of a merge-heavy run's time from one loop's placement.)
static_assert(sizeof(sc_time) == sizeof(sc_dt::uint64) && std::is_trivially_destructible_v<sc_time>);
void Timeline::shift(size_t from, size_t to, size_t count) {
  std::memmove(static_cast<void*>(busy_list_.data() + to), static_cast<const void*>(busy_list_.data() + from),
               count * sizeof(Interval));
}

size_t Timeline::join(size_t i) {
  busy_list_[i].start = busy_list_[i - 1].start;
  if (i - head_ < busy_list_.size() - i) {
    touched(head_);  // the positions from head_ to i move
    shift(head_, head_ + 1, i - 1 - head_);
    ++head_;
    return i;
  }
  touched(i - 1);  // the positions after i - 1 move
  shift(i, i - 1, busy_list_.size() - i);
  busy_list_.pop_back();
  return i - 1;
}

size_t Timeline::insert(size_t i, const Interval& iv) {
  if (i - head_ < busy_list_.size() - i && head_ > 0) {
    touched(head_ - 1);  // the positions from head_ - 1 to i move
    shift(head_, head_ - 1, i - head_);
    --head_;
    busy_list_[i - 1] = iv;
    return i - 1;
  }
  // (The positions from i move: reserve_before() marked them.)
  const Interval copy = iv;
  busy_list_.push_back(copy);
  shift(i, i + 1, busy_list_.size() - 1 - i);
  busy_list_[i] = copy;
  return i;
}

// (Flattened: find_from() inlined here, as the busiest caller, which the
// compiler stopped doing on its own once find_from() grew its far branch.)
[[gnu::flatten]] sc_time Timeline::book(const sc_time& at, const sc_time& duration) {
  Position pos;
  const sc_time s = find(at, duration, pos);
  reserve_at(s, duration, pos.index);
  return s;
}

sc_time Timeline::fill(const sc_time& at, const sc_time& duration) {
  return fill_at(at, duration, at >= last_end_ ? busy_list_.size() : first_ending_after(at));
}

sc_time Timeline::fill(const sc_time& at, const sc_time& duration, const Position& pos) {
  return fill_at(at, duration, pos.index);
}

inline sc_time Timeline::fill_at(const sc_time& at, const sc_time& duration, size_t first) {
  if (at >= last_end_) {  // nothing reserved from `at` on: one piece
    reserve_at(at, duration, first);
    return at + duration;
  }
  assert(first == first_ending_after(at));
  // Each gap from `at` on takes what it can of the work, in order, until it
  // is all placed (the rest after the last reservation). A gap filled up
  // joins the intervals on either side; the walk goes on after them.
  sc_time t = at, left = duration, end = at;
  for (size_t i = first; i < busy_list_.size() && left > sc_core::SC_ZERO_TIME; ++i) {
    if (busy_list_[i].start > t) {
      const sc_time piece = std::min(left, busy_list_[i].start - t);
      left -= piece;
      end = t + piece;
      if (observer_) observer_->reserved(t, end);
      busy_ += piece;
      i = reserve_before(i, t, end);  // the interval holding the piece (and, if filled up, the one after the gap)
    }
    if (busy_list_[i].end > t) t = busy_list_[i].end;
  }
  if (left > sc_core::SC_ZERO_TIME) {
    reserve(t, left);
    end = t + left;
  }
  return end;
}

sc_time Timeline::fill_end_at(const sc_time& at, const sc_time& duration, size_t first) const {
  assert(first == first_ending_after(at));
  sc_time t = at, left = duration, end = at;
  for (size_t i = first; i < busy_list_.size() && left > sc_core::SC_ZERO_TIME; ++i) {
    const Interval& iv = busy_list_[i];
    if (iv.start > t) {
      const sc_time piece = std::min(left, iv.start - t);
      left -= piece;
      end = t + piece;
    }
    if (iv.end > t) t = iv.end;
  }
  return left > sc_core::SC_ZERO_TIME ? t + left : end;
}

void Timeline::retire_ended(const sc_time& now) {
  while (head_ < busy_list_.size() && busy_list_[head_].end <= now) ++head_;
  // Compact once the dead prefix dominates, keeping retire() amortised O(1).
  if (head_ > 64 && head_ * 2 > busy_list_.size()) {
    shift(head_, 0, busy_list_.size() - head_);
    busy_list_.resize(busy_list_.size() - head_);
    head_ = 0;
    gaps_valid_ = 0;  // every position moved
  }
}

}  // namespace ssdtlm
