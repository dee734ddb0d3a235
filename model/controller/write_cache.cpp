#include "model/controller/write_cache.h"

#include <algorithm>

namespace ssd {

sc_time WriteCache::earliest() const {
  sc_time t;
  bool any = false;
  for (const std::deque<Slot>& q : dies_)
    if (!q.empty() && (!any || q.front().release < t)) t = q.front().release, any = true;
  return t;
}

void WriteCache::release_until(const sc_time& t) {
  if (slots_ == 0 || t < next_release_) return;  // (most calls: nothing has ended yet)
  for (std::deque<Slot>& q : dies_) {
    while (!q.empty() && q.front().release <= t) {
      const Slot s = q.front();
      q.pop_front();
      --slots_;
      auto it = resident_.find(s.lpn);
      if (it != resident_.end() && it->second.seq == s.seq) resident_.erase(it);
    }
  }
  next_release_ = earliest();
}

sc_time WriteCache::admit(const sc_time& at) {
  release_until(at);
  ++held_;
  // Slots are taken in order: a page finds room no earlier than the one
  // admitted before it (room freed by a release it waited for is not
  // there before that release).
  if (slots_ + held_ <= capacity_ || slots_ == 0) return std::max(at, room_from_);
  // Full: wait for the earliest destage; its slot is ours. (next_release_
  // is only a bound when release_until returned early: look.)
  const sc_time t = earliest();
  release_until(t);
  room_from_ = std::max(room_from_, t);
  return std::max(at, t);
}

void WriteCache::insert(uint32_t lpn, const sc_time& release, uint64_t tag, uint32_t die) {
  if (held_) --held_;
  std::deque<Slot>& q = dies_[std::min<size_t>(die, dies_.size() - 1)];
  const Slot slot{release, lpn, ++inserts_};
  // Programs on a die mostly end in the order they are booked: at the back.
  if (q.empty() || !(release < q.back().release))
    q.push_back(slot);
  else
    q.insert(std::upper_bound(q.begin(), q.end(), release, [](const sc_time& r, const Slot& s) { return r < s.release; }),
             slot);
  if (slots_++ == 0 || release < next_release_) next_release_ = release;
  resident_[lpn] = {tag, slot.seq};
  drained_ = std::max(drained_, release);
}

void WriteCache::postpone(uint32_t die, const std::vector<std::pair<sc_time, sc_time>>& moves) {
  if (moves.empty()) return;
  for (const auto& move : moves) drained_ = std::max(drained_, move.second);
  if (die >= dies_.size() - 1) return;
  std::deque<Slot>& q = dies_[die];
  // The moves, earliest `from` first, against the die's slots from the
  // first released at or after it: one walk.
  auto m = moves.rbegin();
  auto it = std::lower_bound(q.begin(), q.end(), m->first, [](const Slot& s, const sc_time& t) { return s.release < t; });
  auto first = q.end(), last = q.end();  // the first and last slot moved
  for (; it != q.end() && m != moves.rend();) {
    if (it->release < m->first) {
      ++it;
    } else if (m->first < it->release) {
      ++m;
    } else {  // released at this move's `from`: now at its `to`
      it->release = m->second;
      if (first == q.end()) first = it;
      last = it++;
    }
  }
  // Moves keep a die's programs in order, so the list stays sorted; should a
  // slot not moved now end before one that was (a release that was not the
  // end of a program on this die), sort it again.
  if (first == q.end()) return;
  auto stop = std::next(last);  // up to the slot after the last one moved
  if (stop != q.end()) ++stop;
  const auto by_release = [](const Slot& a, const Slot& b) { return a.release < b.release; };
  if (!std::is_sorted(first, stop, by_release)) std::stable_sort(q.begin(), q.end(), by_release);
}

const WriteCache::Entry* WriteCache::holds(uint32_t lpn, const sc_time& now) {
  release_until(now);  // (an entry is there until its slot is released)
  auto it = resident_.find(lpn);
  return it != resident_.end() ? &it->second : nullptr;
}

}  // namespace ssd
