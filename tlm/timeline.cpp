#include "tlm/timeline.h"

#include <algorithm>

namespace ssdtlm {

size_t Timeline::first_ending_after(const sc_time& t) const {
  auto it = std::upper_bound(busy_list_.begin() + head_, busy_list_.end(), t,
                             [](const sc_time& v, const Interval& iv) { return v < iv.end; });
  return static_cast<size_t>(it - busy_list_.begin());
}

sc_time Timeline::find(const sc_time& at, const sc_time& duration) const {
  if (at >= last_end_) return at;  // past every reservation (the common case): no search
  sc_time t = at;
  for (size_t i = first_ending_after(at); i < busy_list_.size(); ++i) {
    const Interval& iv = busy_list_[i];
    if (t + duration <= iv.start) return t;
    if (iv.end > t) t = iv.end;
  }
  return t;
}

void Timeline::reserve(const sc_time& start, const sc_time& duration) {
  if (duration == sc_core::SC_ZERO_TIME) return;
  const sc_time end = start + duration;
  if (observer_) observer_->reserved(start, end);
  busy_ += duration;
  if (start >= last_end_) {  // after every reservation: append (or extend the last live one)
    last_end_ = end;
    if (busy_list_.size() > head_ && busy_list_.back().end == start)
      busy_list_.back().end = end;
    else
      busy_list_.push_back(Interval{start, end});
    return;
  }
  if (end > last_end_) last_end_ = end;
  size_t i = first_ending_after(start);
  // Merge with a neighbour that touches, so back-to-back work stays one entry.
  if (i > head_ && busy_list_[i - 1].end == start) {
    busy_list_[i - 1].end = end;
    if (i < busy_list_.size() && busy_list_[i].start == end) {
      busy_list_[i - 1].end = busy_list_[i].end;
      busy_list_.erase(busy_list_.begin() + i);
    }
    return;
  }
  if (i < busy_list_.size() && busy_list_[i].start == end) {
    busy_list_[i].start = start;
    return;
  }
  busy_list_.insert(busy_list_.begin() + i, Interval{start, end});
}

sc_time Timeline::book(const sc_time& at, const sc_time& duration) {
  sc_time s = find(at, duration);
  reserve(s, duration);
  return s;
}

void Timeline::plan_fill(const sc_time& at, const sc_time& duration, std::vector<Piece>& pieces) const {
  pieces.clear();
  sc_time t = at, left = duration;
  for (size_t i = first_ending_after(at); i < busy_list_.size() && left > sc_core::SC_ZERO_TIME; ++i) {
    const Interval& iv = busy_list_[i];
    if (iv.start > t) {
      const sc_time piece = std::min(left, iv.start - t);
      pieces.push_back({t, piece});
      left -= piece;
    }
    if (iv.end > t) t = iv.end;
  }
  if (left > sc_core::SC_ZERO_TIME) pieces.push_back({t, left});
}

sc_time Timeline::fill(const sc_time& at, const sc_time& duration) {
  if (at >= last_end_) {  // nothing reserved from `at` on: one piece
    reserve(at, duration);
    return at + duration;
  }
  static thread_local std::vector<Piece> pieces;
  plan_fill(at, duration, pieces);  // planned first: reserving while walking would shift the list
  for (const Piece& p : pieces) reserve(p.start, p.length);
  return pieces.empty() ? at : pieces.back().start + pieces.back().length;
}

sc_time Timeline::fill_end(const sc_time& at, const sc_time& duration) const {
  if (at >= last_end_) return at + duration;
  static thread_local std::vector<Piece> pieces;
  plan_fill(at, duration, pieces);
  return pieces.empty() ? at : pieces.back().start + pieces.back().length;
}

sc_time Timeline::first_conflict_end(const sc_time& start, const sc_time& end) const {
  size_t i = first_ending_after(start);
  return i < busy_list_.size() && busy_list_[i].start < end ? busy_list_[i].end : start;
}

void Timeline::retire(const sc_time& now) {
  while (head_ < busy_list_.size() && busy_list_[head_].end <= now) ++head_;
  // Compact once the dead prefix dominates, keeping retire() amortised O(1).
  if (head_ > 64 && head_ * 2 > busy_list_.size()) {
    busy_list_.erase(busy_list_.begin(), busy_list_.begin() + head_);
    head_ = 0;
  }
}


}  // namespace ssdtlm
