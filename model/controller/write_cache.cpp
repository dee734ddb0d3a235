#include "model/controller/write_cache.h"

#include <algorithm>

namespace ssd {

void WriteCache::release_until(const sc_time& t) {
  while (!slots_.empty() && slots_.top().first <= t) {
    auto [release, lpn] = slots_.top();
    slots_.pop();
    auto it = resident_.find(lpn);
    if (it != resident_.end() && it->second.release == release) resident_.erase(it);
  }
}

sc_time WriteCache::admit(const sc_time& at) {
  release_until(at);
  ++held_;
  if (slots_.size() + held_ <= capacity_ || slots_.empty()) return at;
  // Full: wait for the earliest destage; its slot is ours.
  const sc_time t = slots_.top().first;
  release_until(t);
  return std::max(at, t);
}

void WriteCache::insert(uint32_t lpn, const sc_time& release, uint64_t tag) {
  if (held_) --held_;
  slots_.push({release, lpn});
  resident_[lpn] = {release, tag};
  drained_ = std::max(drained_, release);
}

void WriteCache::postpone(const sc_time& from, const sc_time& to, const std::function<bool(uint32_t)>& on_die) {
  // Rare (a read suspending a destage) and the cache small: rebuild the queue.
  std::vector<Slot> all;
  all.reserve(slots_.size());
  for (; !slots_.empty(); slots_.pop()) {
    Slot s = slots_.top();
    if (s.first == from && on_die(s.second)) {
      auto it = resident_.find(s.second);
      if (it != resident_.end() && it->second.release == from) it->second.release = to;
      s.first = to;
    }
    all.push_back(s);
  }
  for (const Slot& s : all) slots_.push(s);
  drained_ = std::max(drained_, to);
}

const WriteCache::Entry* WriteCache::holds(uint32_t lpn, const sc_time& now) const {
  auto it = resident_.find(lpn);
  return it != resident_.end() && it->second.release > now ? &it->second : nullptr;
}

}  // namespace ssd
