#include "model/ftl/dftl/dftl_ftl.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "model/sim/random.h"

namespace ssd::ftl {

namespace {
FtlRegistration dftl_registration(
    "dftl", "demand-based page mapping (DFTL): mapping table on flash, LRU cache of entries in DRAM",
    [](const FtlParams& p, FlashMedia& m) { return std::make_unique<DftlFtl>(p, m); },
    {{"ftl.map_cache", "256k", "size",
      "cached mapping entries in DRAM (the table itself lives in translation pages on flash); "
      "with dram.size=0 it lives in controller SRAM"}},
    &DftlFtl::table_bytes);
}

DftlFtl::Sizing DftlFtl::sizing(const FtlParams& p) {
  const uint64_t entry = p.map_entry_bytes;
  if (entry == 0 || entry > p.geometry.page_size) throw std::invalid_argument("map entry size must be 1 .. page size bytes");
  Sizing s;
  s.per_tpage = uint32_t(p.geometry.page_size / entry);
  const uint64_t user_pages = user_pages_for(p);
  s.tpages = (user_pages + s.per_tpage - 1) / s.per_tpage;
  const uint64_t want = uint64_t(p.options.get("ftl.map_cache"));
  if (want < entry)
    throw FtlConfigError("ftl.map_cache", "the map cache (" + std::to_string(want) +
                                              " bytes) must hold at least one mapping entry (" +
                                              std::to_string(entry) + " bytes)");
  const uint64_t gtd = s.tpages * entry;
  const bool sram = p.dram_bytes == 0;
  // (The SRAM write buffer's share: Options keeps it to DRAM-less drives.)
  const uint64_t room = sram ? kSramBytes - std::min(kSramBytes, p.sram_buffer_bytes) : p.dram_bytes;
  // (Blamed on the write buffer when it was set and the map cache left at
  // its default: the buffer is what the user chose.)
  const bool buffer_at_fault = sram && p.sram_buffer_bytes && !p.options.set_by_user("ftl.map_cache");
  if (want > room || gtd > room - want)
    throw FtlConfigError(
        buffer_at_fault ? "controller.sram_write_buffer" : "ftl.map_cache",
        "the map cache (" + std::to_string(want) + " bytes) and the translation directory (" + std::to_string(gtd) +
            " bytes) do not fit in " +
            (sram ? "the controller SRAM of a DRAM-less drive (" + std::to_string(kSramBytes) + " bytes" +
                        (p.sram_buffer_bytes ? ", less the write buffer's " + std::to_string(p.sram_buffer_bytes)
                                             : std::string()) +
                        ")"
                  : "the DRAM left after the write cache (" + std::to_string(p.dram_bytes) + " bytes)"));
  // A cache larger than the whole table holds the whole table.
  s.capacity = std::min<uint64_t>(want / entry, user_pages);
  if (s.capacity > kMaxCacheEntries / 2)  // (GC may overfill it for a while: room for that)
    throw FtlConfigError("ftl.map_cache", "the map cache holds at most " + std::to_string(kMaxCacheEntries / 2) +
                                              " entries (" + std::to_string(s.capacity) + " asked)");
  return s;
}

uint64_t DftlFtl::table_bytes(const FtlParams& p) {
  const Sizing s = sizing(p);
  return (s.capacity + s.tpages) * p.map_entry_bytes;
}

DftlFtl::DftlFtl(const FtlParams& p, FlashMedia& media) : DftlFtl(p, media, sizing(p)) {}

DftlFtl::DftlFtl(const FtlParams& p, FlashMedia& media, const Sizing& s)
    : PageFtl(p, media), per_tpage_(s.per_tpage), tpages_(s.tpages), capacity_(s.capacity) {
  // Translation pages take flash like user data: the dies must hold both.
  if (uint64_t(geo_.dies()) * die_cap_ < user_pages_ + tpages_)
    throw std::invalid_argument("spare area too small for the " + std::to_string(tpages_) +
                                " translation pages of the dftl FTL");
  l2p_.resize(user_pages_ + tpages_, kNone);  // the GTD after the user pages
  flags_.assign(user_pages_, 0);
  slot_.assign(user_pages_, kNone);
  ring_.assign(size_t(std::min<uint64_t>(2 * capacity_ + 64, kNone)), kNone);
  on_flash_.assign(user_pages_, kNone);
  dirty_.assign(tpages_, 0);
}

bool DftlFtl::checkpoint(Checkpoint& c) {
  PageFtl::checkpoint(c);  // the blocks, the full table and GC
  c.section("dftl map cache");
  c.expect(per_tpage_, "entries per translation page");
  c.expect(tpages_, "translation pages");
  c.expect(capacity_, "map cache entries");
  c.value(cached_);
  if (c.loading() && cached_ > capacity_) c.fail("more cached entries than the cache holds");
  c.table(flags_, "logical pages");
  // The cache's LPNs in LRU order, most recent first (its ring is rebuilt
  // from them: the dead entries are not saved).
  std::vector<uint32_t> order;
  if (c.loading()) order.resize(cached_);
  else
    for (uint64_t n = head_; n-- > tail_;)
      if (live(ring_pos(n))) order.push_back(ring_[ring_pos(n)]);
  c.table(order, "cached entries");
  if (c.loading()) {
    for (uint64_t n = tail_; n < head_; ++n) slot_[ring_[ring_pos(n)]] = kNone;
    head_ = tail_ = 0;
    for (auto l = order.rbegin(); l != order.rend(); ++l) {
      if (*l >= user_pages_) c.fail("a cached entry of LPN " + std::to_string(*l) + " beyond the drive");
      push_front(*l);
    }
  }
  c.table(on_flash_, "logical pages");
  c.value(tpage_version_);
  c.value(tpage_cursor_.die);
  c.value(tpage_cursor_.turn);
  c.value(map_);
  if (c.loading()) dirty_ = dirty_counts();
  if (c.loading() && tpage_cursor_.die >= geo_.dies()) c.fail("translation-page cursor beyond the dies");
  return true;
}

void DftlFtl::push_front(uint32_t lpn) {
  if (head_ - tail_ == ring_.size()) compact_ring();
  slot_[lpn] = uint32_t(ring_pos(head_));  // (an entry before it, if any, is dead now)
  ring_[ring_pos(head_++)] = lpn;
}

void DftlFtl::compact_ring() {
  std::vector<uint32_t> kept;
  kept.reserve(cached_);
  for (uint64_t n = tail_; n < head_; ++n)
    if (live(ring_pos(n))) kept.push_back(ring_[ring_pos(n)]);
  if (kept.size() > kMaxCacheEntries)
    throw std::logic_error("dftl FTL: map cache overfilled to " + std::to_string(kept.size()) + " entries");
  if (2 * kept.size() + 64 > ring_.size()) ring_.resize(2 * kept.size() + 64);
  for (size_t i = 0; i < kept.size(); ++i) ring_[i] = kept[i], slot_[kept[i]] = uint32_t(i);
  tail_ = 0;
  head_ = kept.size();
}

int32_t DftlFtl::load(uint32_t lpn, FtlWork& work) {
  if (flags_[lpn] & kCached) {
    ++map_.hits;
    to_front(lpn);
    return -1;
  }
  ++map_.misses;
  // Make room first (DFTL evicts, then loads): the eviction's write-back may
  // run GC, whose moves can bring entries (even this one) into the cache.
  while (cached_ >= capacity_) evict(work);
  if (flags_[lpn] & kCached) {  // GC moved this page just now: its entry is known
    to_front(lpn);
    return -1;
  }
  flags_[lpn] = kCached;
  push_front(lpn);
  ++cached_;
  const uint32_t tpage = l2p_[user_pages_ + lpn / per_tpage_];
  if (tpage == kNone) return -1;  // never written back: every entry of it is unmapped
  ++map_.tpage_reads;
  const int32_t index = int32_t(work.ops.size());
  work.add({FlashOp::Kind::Read, Ppn(tpage)});
  return index;
}

uint32_t DftlFtl::pop_lru() {
  // The oldest live entry; the dead ones before it go. Entries some way
  // ahead are fetched now: their slots and flags, which the evictions
  // after this one read (with random writes and a small cache, nearly
  // every entry is live: one a write, and several more for GC's moves).
  constexpr uint64_t kAhead = 16;
  for (;; ++tail_) {
    if (tail_ == head_) throw std::logic_error("dftl FTL: eviction from an empty map cache");
    if (tail_ + kAhead < head_) {
      const uint32_t next = ring_[ring_pos(tail_ + kAhead)];
      __builtin_prefetch(&slot_[next], 1), __builtin_prefetch(&flags_[next], 1);
    }
    const size_t pos = ring_pos(tail_);
    if (!live(pos)) continue;
    const uint32_t victim = ring_[pos];
    ++tail_;
    slot_[victim] = kNone;
    --cached_;
    flags_[victim] &= uint8_t(~kCached);
    return victim;
  }
}

void DftlFtl::evict(FtlWork& work) {
  // Out of the cache before the write-back: GC run by its program may move
  // the victim's page, and must then bring the entry back in (dirty).
  const uint32_t victim = pop_lru();
  if (flags_[victim] & kDirty) {
    ++map_.dirty_evictions;
    write_back(victim / per_tpage_, work, victim);  // cleans the victim with the rest of its page
  }
}

uint32_t DftlFtl::clean(uint32_t t, uint32_t dirty_lpn) {
  // Under random writes a small cache evicts entries whose page has no other
  // dirty one: clean that entry alone, not the page's thousand (that scan
  // was 10 us a host write, half of preconditioning with a tiny map cache).
  if (dirty_lpn != kNone && dirty_[t] == 1) {
    on_flash_[dirty_lpn] = l2p_[dirty_lpn];
    flags_[dirty_lpn] &= uint8_t(~kDirty);
    dirty_[t] = 0;
    return 1;
  }
  dirty_[t] = 0;
  const uint32_t first = t * per_tpage_, end = uint32_t(std::min<uint64_t>(first + per_tpage_, user_pages_));
  uint32_t merged = 0;
  const auto merge = [&](uint32_t l) {
    on_flash_[l] = l2p_[l];
    flags_[l] &= uint8_t(~kDirty);
    ++merged;
  };
  // A page's few dirty entries are found in its flags alone, eight at a
  // time: the entries' addresses (l2p_, on_flash_: 8 bytes an entry, mostly
  // not in the CPU cache) are touched only for them.
  constexpr uint64_t kDirtyBytes = 0x0101010101010101ull * kDirty;
  uint32_t l = first;
  for (; l + 8 <= end; l += 8) {
    uint64_t word;
    std::memcpy(&word, &flags_[l], sizeof word);
    for (word &= kDirtyBytes; word; word &= word - 1) merge(l + uint32_t(__builtin_ctzll(word)) / 8);
  }
  for (; l < end; ++l)
    if (flags_[l] & kDirty) merge(l);
  return merged;
}

void DftlFtl::write_back(uint32_t t, FtlWork& work, uint32_t dirty_lpn) {
  const uint32_t id = uint32_t(user_pages_) + t;
  int32_t read_index = -1;
  if (l2p_[id] != kNone) {
    // Read the old version for the entries not in the cache; it is stale once
    // the new one is programmed (invalid now, so GC never copies it).
    ++map_.tpage_reads;
    read_index = int32_t(work.ops.size());
    work.add({FlashOp::Kind::Read, Ppn(l2p_[id])});
    invalidate(l2p_[id]);
  }
  // Merge the dirty entries (read from the cache in DRAM) into the page.
  const uint32_t merged = clean(t, dirty_lpn);
  map_.written_back += merged;
  work.map_reads += merged;
  work.cpu_cycles += params_.cycles.map_update;
  bool after_gc = false;
  const Ppn ppn = place(tpage_cursor_, 1, id, {id, ++tpage_version_}, work, after_gc);  // its own stream
  ++map_.tpage_writes;
  work.add({FlashOp::Kind::Program, ppn, false, read_index, after_gc});
}

void DftlFtl::on_moved(uint32_t id) {
  if (id >= user_pages_) {
    ++map_.gc_tpages_moved;  // l2p_ is the GTD for these: already updated
    return;
  }
  {
    // GC walks its victim in page order: fetch the entry state of a page a
    // few ahead (the die's victim is the one being collected now): its
    // flags, and its ring position, written if it enters the cache.
    const Die& d = dies_[l2p_[id] / geo_.pages_per_block / geo_.blocks_per_die()];
    const uint32_t ahead = d.victim_cursor + 8;
    if (d.victim != kNone && ahead < geo_.pages_per_block) {
      const uint32_t next = p2l_[d.victim * geo_.pages_per_block + ahead];
      if (next < user_pages_) __builtin_prefetch(&flags_[next], 1), __builtin_prefetch(&slot_[next], 1);
    }
  }
  if (!(flags_[id] & kCached)) {
    // Into the cache, dirty, at the recent end: written back later with the
    // other dirty entries of its translation page. (At the cold end it would
    // be evicted at once, one translation-page write per moved page; those
    // writes need GC in turn, and random-write steady state measured a write
    // amplification of 64 on the bench drive.)
    push_front(id);
    ++cached_;
  }
  mark_dirty(id);
  flags_[id] |= kCached;
}

void DftlFtl::read(Lpn lpn, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup;
  work.map_reads += 1;
  const size_t first_op = work.ops.size();
  const uint32_t before = l2p_[lpn.v];
  const int32_t tread = load(lpn.v, work);
  shrink(work);  // GC entries brought in by the load's eviction
  const uint32_t ppn = l2p_[lpn.v];
  if (ppn == kNone) {
    ++stats_.unmapped_reads;
    // No host data: mark the map-page reads as the FTL's own, so that
    // FtlWork::returns finds no data (they count as GC reads in the flash
    // statistics).
    for (size_t i = first_op; i < work.ops.size(); ++i)
      if (work.ops[i].kind == FlashOp::Kind::Read) work.ops[i].gc = true;
    return;
  }
  // Moved by GC within this very request: read the copy once it is written.
  work.add({FlashOp::Kind::Read, Ppn(ppn), false, tread, ppn != before});
}

void DftlFtl::write(Lpn lpn, uint64_t version, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup + params_.cycles.map_update;
  work.map_reads += 1;
  work.map_writes += 1;
  load(lpn.v, work);  // the old address is needed to invalidate it
  if (l2p_[lpn.v] != kNone) invalidate(l2p_[lpn.v]);
  bool after_gc = false;
  const Ppn ppn = place(lpn.v, {lpn.v, version}, work, after_gc);
  mark_dirty(lpn.v);
  ++stats_.host_pages_written;
  work.add({FlashOp::Kind::Program, ppn, false, -1, after_gc});
  shrink(work);
}

void DftlFtl::trim(Lpn lpn, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup + params_.cycles.map_update;
  work.map_reads += 1;
  load(lpn.v, work);
  if (l2p_[lpn.v] != kNone) {
    work.map_writes += 1;
    invalidate(l2p_[lpn.v]);
    l2p_[lpn.v] = kNone;
    mark_dirty(lpn.v);
    ++stats_.trimmed_pages;
  }
  shrink(work);
}

bool DftlFtl::background(FtlWork& work) {
  if (!PageFtl::background(work)) return false;
  shrink(work);  // entries its moves brought into the cache
  return true;
}

void DftlFtl::prefetch(Lpn lpn) const {
  PageFtl::prefetch(lpn);
  __builtin_prefetch(&flags_[lpn.v]), __builtin_prefetch(&slot_[lpn.v]);
}

void DftlFtl::prefetch(Lpn lpn, int stage) const {
  PageFtl::prefetch(lpn, stage);
  if (stage == 0) __builtin_prefetch(&flags_[lpn.v]), __builtin_prefetch(&slot_[lpn.v]);
}

void DftlFtl::reset_stats() {
  PageFtl::reset_stats();
  map_ = MapStats{};
}

std::vector<FtlStat> DftlFtl::extra_stats() const {
  std::vector<FtlStat> all = PageFtl::extra_stats();
  all.insert(all.end(), {
      {"map_cache_entries", double(capacity_), "count", "mapping entries the cache holds (ftl.map_cache / entry size)"},
      {"translation_pages", double(tpages_), "pages", "translation pages of the full mapping table"},
      {"map_cache_hits", double(map_.hits), "count", "lookups (read, write, trim) that found their entry cached"},
      {"map_cache_misses", double(map_.misses), "count", "lookups that had to load their entry"},
      {"translation_page_reads", double(map_.tpage_reads), "pages",
       "translation pages read: cache misses and read-modify-write of evictions"},
      {"translation_page_writes", double(map_.tpage_writes), "pages", "translation pages programmed (write-backs)"},
      {"dirty_evictions", double(map_.dirty_evictions), "count", "evicted dirty entries (each writes its page back)"},
      {"map_entries_written_back", double(map_.written_back), "count",
       "dirty entries cleaned by write-backs (batching: per translation page written)"},
      {"gc_translation_pages_moved", double(map_.gc_tpages_moved), "pages", "translation pages GC copied"},
  });
  return all;
}

bool DftlFtl::steady_state(uint64_t seed, const std::function<uint64_t(uint64_t)>& version) {
  // The data as the page FTL's greedy model lays it out (the translation
  // pages, a thousandth of the pages, barely shift the valid counts), then
  // every translation page written once: the cache is empty, every entry
  // clean. Then the cache as long random use leaves it: full of dirty
  // entries, from host writes and the pages GC moved (about 8 per host write
  // at 7 % spare).
  PageFtl::steady_state(seed, version);
  FtlWork w;
  w.record_ops = false;
  for (uint32_t t = 0; t < tpages_; ++t) {
    const uint32_t first = t * per_tpage_, end = uint32_t(std::min<uint64_t>(first + per_tpage_, user_pages_));
    for (uint32_t l = first; l < end; ++l) flags_[l] |= kDirty;  // all of it goes out (write_back cleans it all)
    w.clear();
    write_back(t, w);
  }
  warm_cache(seed ^ 0x6466746c7761726dull, std::min<uint64_t>(2 * capacity_, user_pages_));
  return true;
}

void DftlFtl::warm_cache(uint64_t seed, uint64_t touches) {
  // Under uniform random writes, a host write and a GC move both touch a
  // uniformly random entry: it becomes cached, dirty and most recently used;
  // the least recently used entries leave, a dirty one cleaning every dirty
  // entry of its translation page (its write-back). That is all the cache's
  // state depends on, so the touches run here without the flash work the
  // writes would do: their data would only move within the steady state the
  // model built, at a write amplification of about 9 (a 1 TiB drive with a
  // 64 MiB cache took 128 s written this way, against seconds). A touched
  // entry keeps its address: dirty, but what its translation page says,
  // which the map allows (only a clean entry must agree with flash).
  // (Entries GC brought in while the translation pages were written may
  // hold new addresses: cleaning one records its address as the write-back
  // would.)
  const auto drop_lru = [this] {
    const uint32_t victim = pop_lru();
    if (flags_[victim] & kDirty) clean(victim / per_tpage_, victim);
  };
  Random rng(seed);
  for (uint64_t i = 0; i < touches; ++i) {
    const uint32_t lpn = uint32_t(rng.below(user_pages_));
    if (flags_[lpn] & kCached) {
      to_front(lpn);
    } else {
      while (cached_ >= capacity_) drop_lru();
      push_front(lpn);
      ++cached_;
    }
    mark_dirty(lpn);
    flags_[lpn] |= kCached;
  }
  while (cached_ > capacity_) drop_lru();
}

void DftlFtl::check_consistency() const {
  PageFtl::check_consistency();  // l2p_ (data and GTD) vs p2l_ vs valid counts
  auto fail = [](const std::string& what) { throw std::logic_error("dftl FTL inconsistent: " + what); };
  uint64_t listed = 0;
  if (head_ < tail_ || head_ - tail_ > ring_.size()) fail("map cache ring holds more than its size");
  for (uint64_t n = tail_; n < head_; ++n) {
    const uint32_t l = ring_[ring_pos(n)];
    if (l >= user_pages_) fail("map cache ring holds LPN " + std::to_string(l) + " beyond the drive");
    if (slot_[l] != ring_pos(n)) continue;  // a dead entry: a later touch, or evicted
    if (!(flags_[l] & kCached)) fail("LPN " + std::to_string(l) + " in the LRU order but not cached");
    ++listed;
  }
  if (listed != cached_ || cached_ > capacity_)
    fail("cache holds " + std::to_string(listed) + " entries, count " + std::to_string(cached_) + ", capacity " +
         std::to_string(capacity_));
  uint64_t flagged = 0;  // entries flagged cached: the ring holds every one
  for (uint64_t l = 0; l < user_pages_; ++l) {
    flagged += flags_[l] & kCached;
    if ((flags_[l] & kCached) != 0 && (slot_[l] >= ring_.size() || ring_[slot_[l]] != l))
      fail("LPN " + std::to_string(l) + " cached but not in the LRU order");
    if (flags_[l] == kDirty) fail("LPN " + std::to_string(l) + " dirty but not cached");
    // A clean entry is what its translation page on flash says.
    if (!(flags_[l] & kDirty) && on_flash_[l] != l2p_[l])
      fail("LPN " + std::to_string(l) + " is clean but its translation page holds a stale address");
    if (on_flash_[l] != kNone && l2p_[user_pages_ + l / per_tpage_] == kNone)
      fail("LPN " + std::to_string(l) + " written back but its translation page is unmapped");
  }
  if (flagged != listed) fail(std::to_string(flagged) + " entries flagged cached, " + std::to_string(listed) + " listed");
  const std::vector<uint32_t> dirty = dirty_counts();
  for (uint64_t t = 0; t < tpages_; ++t)
    if (dirty[t] != dirty_[t])
      fail("translation page " + std::to_string(t) + " has " + std::to_string(dirty[t]) + " dirty entries, counted " +
           std::to_string(dirty_[t]));
}

std::vector<uint32_t> DftlFtl::dirty_counts() const {
  std::vector<uint32_t> dirty(tpages_, 0);
  for (uint64_t l = 0; l < user_pages_; ++l) dirty[l / per_tpage_] += (flags_[l] & kDirty) ? 1 : 0;
  return dirty;
}

}  // namespace ssd::ftl
