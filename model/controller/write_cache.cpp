#include "model/controller/write_cache.h"

#include <algorithm>

namespace ssd {

void WriteCache::release_until(const sc_time& t) {
  while (!slots_.empty() && slots_.begin()->first <= t) {
    auto [release, lpn] = *slots_.begin();
    slots_.erase(slots_.begin());
    auto it = resident_.find(lpn);
    if (it != resident_.end() && it->second.release == release) resident_.erase(it);
  }
}

sc_time WriteCache::admit(const sc_time& at) {
  release_until(at);
  ++held_;
  if (slots_.size() + held_ <= capacity_ || slots_.empty()) return at;
  // Full: wait for the earliest destage; its slot is ours.
  const sc_time t = slots_.begin()->first;
  release_until(t);
  return std::max(at, t);
}

void WriteCache::insert(uint32_t lpn, const sc_time& release, uint64_t tag) {
  if (held_) --held_;
  slots_.insert({release, lpn});
  resident_[lpn] = {release, tag};
  drained_ = std::max(drained_, release);
}

void WriteCache::postpone(const std::vector<std::pair<sc_time, sc_time>>& moves,
                          const std::function<bool(uint32_t)>& on_die) {
  if (moves.empty()) return;
  moving_.clear();
  // A slot moves with the move whose `from` is its release time. Each slot
  // is matched against its time before any move (the moves' `from`s are
  // distinct and each `to` is later than its `from`), so the order of the
  // matching does not matter.
  const auto take = [&](std::multiset<Slot>::iterator& it, const sc_time& to) {
    if (!on_die(it->second)) {
      ++it;
      return;
    }
    auto r = resident_.find(it->second);
    if (r != resident_.end() && r->second.release == it->first) r->second.release = to;
    moving_.emplace_back(slots_.extract(it++), to);
  };
  if (moves.size() * 16 < slots_.size()) {  // a few moves: a search for each
    for (const auto& [from, to] : moves)
      for (auto it = slots_.lower_bound({from, 0}); it != slots_.end() && it->first == from;) take(it, to);
  } else {  // many (a read suspending a deep queue): one walk over the slots they span, at most 16 a move
    auto m = moves.rbegin();  // earliest `from` first
    for (auto it = slots_.lower_bound({m->first, 0}); it != slots_.end() && m != moves.rend();) {
      if (it->first < m->first)
        ++it;
      else if (it->first > m->first)
        ++m;
      else
        take(it, m->second);
    }
  }
  for (auto& [slot, to] : moving_) {
    slot.value().first = to;
    slots_.insert(std::move(slot));
  }
  for (const auto& move : moves) drained_ = std::max(drained_, move.second);
}

const WriteCache::Entry* WriteCache::holds(uint32_t lpn, const sc_time& now) const {
  auto it = resident_.find(lpn);
  return it != resident_.end() && it->second.release > now ? &it->second : nullptr;
}

}  // namespace ssd
