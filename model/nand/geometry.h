#pragma once
// Flash geometry and strongly typed addresses. An Lpn (logical page, the
// host's view) can never be passed where a Ppn (a physical flash page) is
// wanted, nor a channel where a die is.

#include <cstdint>
#include <limits>

namespace ssd {

template <typename Tag, typename Rep = uint32_t>
struct StrongIndex {
  Rep v = std::numeric_limits<Rep>::max();
  constexpr StrongIndex() = default;
  constexpr explicit StrongIndex(Rep x) : v(x) {}
  constexpr bool valid() const { return v != std::numeric_limits<Rep>::max(); }
  constexpr bool operator==(StrongIndex o) const { return v == o.v; }
  constexpr bool operator!=(StrongIndex o) const { return v != o.v; }
  constexpr bool operator<(StrongIndex o) const { return v < o.v; }
};

using Lpn = StrongIndex<struct LpnTag>;         // logical page number
using Ppn = StrongIndex<struct PpnTag>;         // physical page, drive-wide
using BlockId = StrongIndex<struct BlockTag>;   // physical block, drive-wide
using DieId = StrongIndex<struct DieTag>;       // die, drive-wide
using ChannelId = StrongIndex<struct ChannelTag>;

struct FlashGeometry {
  uint32_t channels = 8;
  uint32_t dies_per_channel = 4;
  uint32_t planes_per_die = 2;
  uint32_t blocks_per_plane = 1024;
  uint32_t pages_per_block = 128;
  uint32_t page_size = 4096;  // bytes of user data per page

  // Counts are 64-bit: the option check multiplies user-supplied factors
  // here and refuses a geometry past 2^32 - 1 pages, so the products must
  // not wrap before it can look (a Ppn is 32-bit).
  uint32_t dies() const { return channels * dies_per_channel; }
  uint32_t blocks_per_die() const { return planes_per_die * blocks_per_plane; }
  uint64_t blocks() const { return uint64_t(dies()) * blocks_per_die(); }
  uint64_t pages() const { return blocks() * pages_per_block; }
  uint64_t bytes() const { return pages() * page_size; }

  // Layout: Ppn = block * pages_per_block + page, block = die * blocks_per_die
  // + block_in_die, and die = die_in_channel * channels + channel, so that
  // consecutive die numbers sit on different channels (round-robin
  // allocation over dies then stripes across channels first).
  BlockId block_of(Ppn p) const { return BlockId(over(p.v, pages_per_block)); }
  uint32_t page_in_block(Ppn p) const { return rest(p.v, pages_per_block); }
  Ppn first_page(BlockId b) const { return Ppn(b.v * pages_per_block); }
  DieId die_of(BlockId b) const { return DieId(over(b.v, blocks_per_die())); }
  DieId die_of(Ppn p) const { return die_of(block_of(p)); }
  BlockId block(DieId d, uint32_t block_in_die) const { return BlockId(d.v * blocks_per_die() + block_in_die); }
  ChannelId channel_of(DieId d) const { return ChannelId(rest(d.v, channels)); }
  uint32_t die_in_channel(DieId d) const { return over(d.v, channels); }
  uint32_t plane_of(BlockId b) const { return (b.v % blocks_per_die()) % planes_per_die; }

  // n / d and n % d for a count d of the geometry. These divisions are on
  // every flash operation's path, and the counts are nearly always powers
  // of two, where a shift or a mask gives the same answer much faster.
  static uint32_t over(uint32_t n, uint32_t d) { return (d & (d - 1)) == 0 ? n >> __builtin_ctz(d) : n / d; }
  static uint32_t rest(uint32_t n, uint32_t d) { return (d & (d - 1)) == 0 ? n & (d - 1) : n % d; }
};

}  // namespace ssd
