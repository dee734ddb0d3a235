#pragma once
// The least of n values, and where it is first, kept up to date as values
// change: a complete binary tree whose every node holds the least value
// below it (a tournament tree). Setting a value is O(log n); the least is
// O(1), its first position O(log n) (down the tree, left on ties).
//
// Why: static wear levelling asks, after every erase on a die, for the die's
// fewest erases and for its least-worn closed block. Answered by a pass over
// the die's blocks, that was most of a run of small (four-page) blocks,
// which erase every few writes; the tree answers in a few steps and costs
// 8 bytes a block (two values per leaf, rounded up to a power of two).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssd::ftl {

class MinTree {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;  // a value that is not there (never the least while another is)

  // n positions, all kNone.
  void reset(uint32_t n) {
    leaves_ = 1;
    while (leaves_ < n) leaves_ *= 2;
    node_.assign(2 * std::size_t(leaves_), kNone);
  }
  void set(uint32_t i, uint32_t value) {
    std::size_t k = leaves_ + std::size_t(i);
    node_[k] = value;
    for (k /= 2; k >= 1; k /= 2) {
      const uint32_t least = node_[2 * k] < node_[2 * k + 1] ? node_[2 * k] : node_[2 * k + 1];
      if (node_[k] == least) break;  // (nothing above changes either)
      node_[k] = least;
    }
  }
  uint32_t value(uint32_t i) const { return node_[leaves_ + std::size_t(i)]; }
  // The least value (kNone if none is set).
  uint32_t least() const { return node_[1]; }
  // The first position holding least() (kNone if none is set).
  uint32_t first_least() const {
    if (node_[1] == kNone) return kNone;
    std::size_t k = 1;
    while (k < leaves_) k = node_[2 * k] == node_[k] ? 2 * k : 2 * k + 1;
    return uint32_t(k - leaves_);
  }

 private:
  uint32_t leaves_ = 1;
  std::vector<uint32_t> node_ = std::vector<uint32_t>(2, kNone);  // node_[1] the root; the leaves from leaves_
};

}  // namespace ssd::ftl
