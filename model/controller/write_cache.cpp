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

void WriteCache::postpone(const sc_time& from, const sc_time& to, const std::function<bool(uint32_t)>& on_die) {
  std::vector<uint32_t> moved;
  for (auto it = slots_.lower_bound({from, 0}); it != slots_.end() && it->first == from;) {
    if (!on_die(it->second)) {
      ++it;
      continue;
    }
    auto r = resident_.find(it->second);
    if (r != resident_.end() && r->second.release == from) r->second.release = to;
    moved.push_back(it->second);
    it = slots_.erase(it);
  }
  for (uint32_t lpn : moved) slots_.insert({to, lpn});
  drained_ = std::max(drained_, to);
}

const WriteCache::Entry* WriteCache::holds(uint32_t lpn, const sc_time& now) const {
  auto it = resident_.find(lpn);
  return it != resident_.end() && it->second.release > now ? &it->second : nullptr;
}

}  // namespace ssd
