#pragma once
// DFTL, demand-based page mapping (Gupta, Kim, Urgaonkar, ASPLOS 2009): a
// page-mapped FTL whose full mapping table lives on flash, in translation
// pages of page_size / map_entry_bytes entries each, while DRAM holds only a
// cache of recently used entries (`ftl.map_cache` bytes, LRU) and the global
// translation directory (GTD: translation page number -> flash page).
//
// Costs the page FTL does not have:
//  - a lookup that misses the cache reads the entry's translation page first
//    (a flash read; the host data read is ordered after it);
//  - making room evicts the least recently used entry; a dirty one writes its
//    translation page back: read the old version, program the new one with
//    every dirty cached entry of that page (a batch: they all become clean),
//    the old version becomes invalid;
//  - GC moves translation pages like data pages (a victim holds either), and
//    a moved data page's new address must reach its translation page: a
//    cached entry is updated in place (dirty); an uncached one enters the
//    cache dirty (most recently used), and is written back when evicted
//    along with every other dirty entry of its translation page. (The paper
//    updates uncached entries' translation pages at once, batched per
//    victim; with random data nearly every moved page has its own
//    translation page, so that costs a translation-page write per move.)
// Block management, greedy GC and die striping are the page FTL's (this
// class derives from it); translation pages are logical pages numbered after
// the user's, so l2p_[user_pages + t] is the GTD entry of translation page t.
// Translation pages go round the dies on a cursor of their own: on the host
// data's, a write-back before most host writes made the two streams alias
// (with an even die count data went mostly to some dies, translation pages
// to the others), leaving some dies full of valid data (GC there moving 248
// of 256 pages) while others had spare to give: 5x fewer IOPS at a steady
// state of random writes than with the streams apart.
//
// Without DRAM (dram.size = 0) the cache and the GTD live in controller SRAM,
// which holds at most kSramBytes of them, less what the controller's write
// buffer takes (controller.sram_write_buffer).

#include <vector>

#include "model/ftl/page/page_ftl.h"

namespace ssd::ftl {

class DftlFtl : public PageFtl {
 public:
  static constexpr uint64_t kSramBytes = kControllerSramBytes;

  DftlFtl(const FtlParams& p, FlashMedia& media);
  // map_bytes() of a DFTL built from `p` (FtlTableBytes), its map cache
  // and translation directory checked against the DRAM as the constructor does.
  static uint64_t table_bytes(const FtlParams& p);

  void read(Lpn lpn, FtlWork& work) override;
  void write(Lpn lpn, uint64_t version, FtlWork& work) override;
  void trim(Lpn lpn, FtlWork& work) override;
  bool background(FtlWork& work) override;
  // The state of long uniform random overwrites (dftl_ftl.cpp).
  bool steady_state(uint64_t seed, const std::function<uint64_t(uint64_t)>& version) override;
  // The cache and the GTD; the full table is on flash.
  uint64_t map_bytes() const override { return (capacity_ + tpages_) * params_.map_entry_bytes; }
  void check_consistency() const override;
  // The timed path's hint: the entry's cache flags and LRU slot too (load()
  // reads them first, for every request).
  void prefetch(Lpn lpn) const override;
  void prefetch(Lpn lpn, int stage) const override;
  void reset_stats() override;
  std::vector<FtlStat> extra_stats() const override;
  bool checkpoint(Checkpoint& c) override;

  // For tests.
  uint64_t cache_entries() const { return capacity_; }
  uint32_t entries_per_translation_page() const { return per_tpage_; }
  bool cached(Lpn lpn) const { return flags_[lpn.v] & kCached; }
  bool dirty(Lpn lpn) const { return flags_[lpn.v] & kDirty; }

 private:
  static constexpr uint8_t kCached = 1, kDirty = 2;
  // The ring's positions are 32-bit (slot_), and it holds twice its live entries.
  static constexpr uint64_t kMaxCacheEntries = (uint64_t(kNone) - 64) / 2;
  // What the parameters make of the table, checked before the page FTL
  // under this one builds its own (constructor delegation).
  struct Sizing {
    uint32_t per_tpage;  // entries per translation page
    uint64_t tpages;     // translation pages of the full table
    uint64_t capacity;   // cache entries
  };
  static Sizing sizing(const FtlParams& p);
  DftlFtl(const FtlParams& p, FlashMedia& media, const Sizing& s);
  struct MapStats {
    uint64_t hits = 0, misses = 0, tpage_reads = 0, tpage_writes = 0, dirty_evictions = 0, written_back = 0,
             gc_tpages_moved = 0;
  };

  void on_moved(uint32_t id) override;
  // Make `lpn`'s entry cached and most recently used: a miss evicts first,
  // then reads its translation page. Returns that read's op index, or -1.
  int32_t load(uint32_t lpn, FtlWork& work);
  // Evict least recently used entries until the cache is within capacity.
  void shrink(FtlWork& work) {
    while (cached_ > capacity_) evict(work);
  }
  void evict(FtlWork& work);
  // Take the least recently used entry out of the cache (uncached, its
  // dirty flag kept); returns it.
  uint32_t pop_lru();
  // Translation page `t`'s dirty entries made clean, their addresses now
  // what the page on flash says; returns how many. `dirty_lpn`: one of them,
  // if known (when it is the only one, no scan of the page).
  uint32_t clean(uint32_t t, uint32_t dirty_lpn = kNone);
  // Read-modify-write of translation page `t` with every dirty entry of it.
  void write_back(uint32_t t, FtlWork& work, uint32_t dirty_lpn = kNone);
  // Entry `lpn` made dirty (counted on its translation page).
  void mark_dirty(uint32_t lpn) {
    dirty_[lpn / per_tpage_] += (flags_[lpn] & kDirty) ? 0 : 1;
    flags_[lpn] |= kDirty;
  }
  // Dirty entries per translation page, counted from flags_ (what dirty_
  // keeps; a loaded checkpoint rebuilds it, check_consistency compares).
  std::vector<uint32_t> dirty_counts() const;
  // steady_state(): `touches` uniformly random entries made cached and
  // dirty, with the cache's evictions and write-backs but no flash work.
  void warm_cache(uint64_t seed, uint64_t touches);
  // The LRU order (ring_): `lpn` (cached) becomes the most recently used;
  // `lpn` (not cached) enters as the most recently used.
  void to_front(uint32_t lpn) {
    if (slot_[lpn] != ring_pos(head_ - 1)) push_front(lpn);
  }
  void push_front(uint32_t lpn);
  size_t ring_pos(uint64_t n) const { return size_t(n % ring_.size()); }
  // The ring's entry at `pos` is its LPN's last touch (cached: not evicted since).
  bool live(size_t pos) const { return slot_[ring_[pos]] == pos; }
  // The ring full: keep only its live entries, in order, in a ring of room
  // for them and as many again.
  void compact_ring();

  uint32_t per_tpage_;  // entries per translation page
  uint64_t tpages_;     // translation pages of the full table
  uint64_t capacity_;   // cache entries
  uint64_t cached_ = 0;
  DieCursor tpage_cursor_;  // where the next translation page goes (one per die in turn)
  // (The per-LPN tables are looked up at random: huge pages, big_table.h.)
  BigTable<uint8_t> flags_;          // per LPN: kCached, kDirty
  // The LRU order, as the log of touches it is: a ring of LPNs, each entry
  // a touch (entering the cache, or a hit), oldest at tail_, newest before
  // head_ (both counts of entries logged since the ring was last packed:
  // positions mod the ring's size). An LPN's live entry is its last touch, the one its slot_ names;
  // the entries before it are dead and skipped where the eviction reaches
  // them. The least recently used entry is then the oldest live one, as in
  // a linked list, but the eviction reads the ring in order, fetched ahead,
  // where a list's cold end is a pointer chase (a miss per step, several
  // steps a write once GC brings its moved pages' entries in).
  std::vector<uint32_t> ring_;
  uint64_t head_ = 0, tail_ = 0;
  BigTable<uint32_t> slot_;  // per LPN: its live entry's ring position while cached
  // What the translation pages on flash say for each LPN: a clean entry
  // must agree with l2p_ (checked by check_consistency).
  BigTable<uint32_t> on_flash_;
  std::vector<uint32_t> dirty_;  // per translation page: its dirty entries
  uint64_t tpage_version_ = 0;
  MapStats map_;
};

}  // namespace ssd::ftl
