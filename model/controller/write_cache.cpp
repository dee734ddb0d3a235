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

const WriteCache::Entry* WriteCache::holds(uint32_t lpn, const sc_time& now) const {
  auto it = resident_.find(lpn);
  return it != resident_.end() && it->second.release > now ? &it->second : nullptr;
}

}  // namespace ssd
