#include "model/ftl/page/page_ftl.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/ftl/page/bulk_lane.h"

namespace ssd::ftl {

namespace {
FtlRegistration page_registration(
    "page", "page-level mapping, GC on a free-block watermark (greedy or other victim policies), TRIM, idle-time GC, wear levelling",
    [](const FtlParams& p, FlashMedia& m) { return std::make_unique<PageFtl>(p, m); },
    {{"ftl.gc.policy", "greedy", kGcPolicyChoices, "GC victim: fewest valid pages, best age x free / cost, oldest, random, best of d random"},
     {"ftl.gc.d", "8", "count", "d-choice: candidate blocks drawn per victim"},
     {"ftl.gc.bg_threshold", "8", "count", "idle-time GC runs on a die while it has fewer free blocks than this (needs ftl.idle_after)", true},
     {"ftl.gc.separate", "true", "bool", "GC copies go to their own open block, apart from host data (false: into the host's)"},
     {"ftl.wl.dynamic", "false", "bool", "open the free block with the fewest erases instead of the longest-free one"},
     {"ftl.wl.threshold", "0", "count", "static wear levelling: move cold data when a die's erase-count spread exceeds this; 0 = off"}},
    &PageFtl::table_bytes);

// An option's value, or its default when the FTL was built without options
// (tests, or a plug-in deriving from this FTL).
double number(const FtlParams& p, const char* key, double fallback) {
  auto it = p.options.number.find(key);
  return it == p.options.number.end() ? fallback : it->second;
}
GcPolicy policy_of(const FtlParams& p) {
  auto it = p.options.text.find("ftl.gc.policy");
  return it == p.options.text.end() ? GcPolicy::Greedy : parse_gc_policy(it->second);
}
uint32_t d_of(const FtlParams& p) {
  if (p.options.set_by_user("ftl.gc.d") && policy_of(p) != GcPolicy::DChoice)
    throw FtlConfigError("ftl.gc.d", "only applies to ftl.gc.policy=d-choice");
  const double d = number(p, "ftl.gc.d", 8);
  if (d < 1 || d > 1e6) throw FtlConfigError("ftl.gc.d", "d-choice draws 1 to 1000000 candidate blocks, not " +
                                                             std::to_string(uint64_t(d)));
  return uint32_t(d);
}
}  // namespace

PageFtl::PageFtl(const FtlParams& p, FlashMedia& media)
    : params_(p), geo_(p.geometry), media_(media),
      user_pages_(user_pages_for(p)),
      picker_(policy_of(p), d_of(p), p.geometry.pages_per_block, p.seed),
      wl_(media, number(p, "ftl.wl.dynamic", 0) != 0, uint32_t(std::min(number(p, "ftl.wl.threshold", 0), 1e9))) {
  separate_ = number(p, "ftl.gc.separate", 1) != 0;
  const double bg = number(p, "ftl.gc.bg_threshold", 8);
  if (bg > geo_.blocks_per_die())
    throw FtlConfigError("ftl.gc.bg_threshold", std::to_string(uint64_t(bg)) + " free blocks is more than a die has (" +
                                                    std::to_string(geo_.blocks_per_die()) + ")");
  bg_threshold_ = uint32_t(bg);
  const uint64_t user_blocks_per_die =
      (user_pages_ + uint64_t(geo_.dies()) * geo_.pages_per_block - 1) / (uint64_t(geo_.dies()) * geo_.pages_per_block);
  const uint64_t spare = geo_.blocks_per_die() - user_blocks_per_die;
  // GC needs its threshold of free blocks plus the two active blocks.
  if (spare < uint64_t(p.gc_threshold) + 2)
    throw std::invalid_argument("spare area too small: " + std::to_string(spare) +
                                " spare blocks per die, the page FTL needs at least gc threshold + 2 = " +
                                std::to_string(p.gc_threshold + 2));
  if (geo_.pages() >= kNone) throw std::invalid_argument("more than 2^32 flash pages");
  // A die takes host data only while it holds fewer valid pages than its
  // blocks less the GC threshold and two blocks (the open GC block and one
  // to fill): then, whenever it is at the watermark, some closed block has
  // an invalid page, so GC can always free a block and never runs dry.
  // The spare-area rule above makes the dies' caps hold every user page.
  die_cap_ = (uint64_t(geo_.blocks_per_die()) - p.gc_threshold - 2) * geo_.pages_per_block;
  die_valid_.assign(geo_.dies(), 0);
  l2p_.assign(user_pages_, kNone);
  p2l_.assign(geo_.pages(), kNone);
  blocks_.assign(geo_.blocks(), BlockInfo{});
  closed_at_.assign(geo_.blocks(), 0);
  dies_.resize(geo_.dies());
  for (uint32_t d = 0; d < geo_.dies(); ++d) {
    dies_[d].bucket_head.assign(geo_.pages_per_block + 1, kNone);
    for (uint32_t b = 0; b < geo_.blocks_per_die(); ++b) dies_[d].free_blocks.push_back(geo_.block(DieId(d), b).v);
  }
  rebuild_indexes();
}

void PageFtl::read(Lpn lpn, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup;
  work.map_reads += 1;
  const uint32_t ppn = l2p_[lpn.v];
  if (ppn == kNone) {
    ++stats_.unmapped_reads;  // never written or trimmed: answered with zeros, no flash access
    return;
  }
  work.add({FlashOp::Kind::Read, Ppn(ppn)});
}

void PageFtl::write(Lpn lpn, uint64_t version, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup + params_.cycles.map_update;
  work.map_reads += 1;
  work.map_writes += 1;
  if (l2p_[lpn.v] != kNone) invalidate(l2p_[lpn.v]);
  bool after_gc = false;
  const Ppn ppn = place(lpn.v, {lpn.v, version}, work, after_gc);
  ++stats_.host_pages_written;
  // The host page waits for any GC (or wear levelling) this write triggered.
  work.add({FlashOp::Kind::Program, ppn, false, -1, after_gc});
}

Ppn PageFtl::place(uint32_t id, const PageContent& content, FtlWork& work, bool& after_gc) {
  // Host data: one page per die in turn; with multi-plane, a multi-page
  // command's pages one per plane of each die.
  return place(cursor_, multi_page_ ? params_.die_pages : 1, id, content, work, after_gc);
}

uint32_t PageFtl::next_die(DieCursor& cursor, uint32_t per_turn) {
  // Round-robin over dies, skipping a die that is full of valid data.
  uint32_t die = cursor.die;
  for (uint32_t tries = 0; die_valid_[die] >= die_cap_; ++tries) {
    if (tries == geo_.dies()) throw std::logic_error("page FTL: no die can accept a write (drive full)");
    die = (die + 1) % geo_.dies();
  }
  // The next die in turn once this one has had its share of `per_turn`
  // consecutive pages.
  if (die != cursor.die) cursor.turn = 0;  // the cursor's die was full: a fresh turn here
  if (++cursor.turn >= per_turn) {
    cursor.turn = 0;
    cursor.die = (die + 1) % geo_.dies();
  } else {
    cursor.die = die;
  }
  return die;
}

Ppn PageFtl::place(DieCursor& cursor, uint32_t per_turn, uint32_t id, const PageContent& content, FtlWork& work,
                   bool& after_gc) {
  const uint32_t die = next_die(cursor, per_turn);
  const size_t ops_before = work.ops.size();
  if (dies_[die].wl_pending) level_wear(die, work);
  // At the watermark, every host write on the die pays a slice of GC.
  if (dies_[die].free_blocks.size() <= params_.gc_threshold) collect(die, false, work);
  uint32_t block, page;
  const Ppn ppn = allocate(die, false, work, block, page);
  media_.program(BlockId(block), page, content);
  p2l_[ppn.v] = id;
  l2p_[id] = ppn.v;
  ++blocks_[block].valid;
  ++die_valid_[die];
  ++stats_.flash_pages_written;
  ++seq_;
  // Any GC (or wear levelling) this write triggered: the program waits for it.
  after_gc = work.ops.size() != ops_before;
  return ppn;
}

void PageFtl::trim(Lpn lpn, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup + params_.cycles.map_update;
  work.map_reads += 1;
  const uint32_t ppn = l2p_[lpn.v];
  if (ppn == kNone) return;
  work.map_writes += 1;
  invalidate(ppn);
  l2p_[lpn.v] = kNone;
  ++stats_.trimmed_pages;
}

Ppn PageFtl::allocate(uint32_t die, bool for_gc, FtlWork& work, uint32_t& block, uint32_t& page) {
  Die& d = dies_[die];
  WritePoint& wp = for_gc && separate_ ? d.gc : d.host;
  if (wp.block == kNone || wp.next_page == geo_.pages_per_block) open_block(die, for_gc, wp, work);
  block = wp.block;
  page = wp.next_page++;
  return Ppn(block * geo_.pages_per_block + page);
}

void PageFtl::open_block(uint32_t die, bool for_gc, WritePoint& wp, FtlWork& work) {
  Die& d = dies_[die];
  if (wp.block != kNone) close_block(wp.block), wp.block = kNone;
  // Host data never takes the last blocks: below the watermark GC runs to
  // completion first, and at least one block always stays for GC, which
  // draws on that reserve (it opens at most one block per victim, and the
  // victim's own block comes back before it needs another).
  if (!for_gc)
    while ((d.free_blocks.size() < params_.gc_threshold || d.free_blocks.size() < 2) && collect(die, true, work)) {
    }
  // Without hot/cold separation that GC shares this write point and may have opened a block.
  if (wp.block != kNone && wp.next_page < geo_.pages_per_block) return;
  if (wp.block != kNone) close_block(wp.block);
  if (d.free_blocks.empty()) throw std::logic_error("page FTL: die " + std::to_string(die) + " has no free block");
  if (wl_.dynamic()) {
    wp.block = wl_.take_free(die, d.free_blocks);
  } else {
    wp.block = d.free_blocks.front();
    d.free_blocks.pop_front();
  }
  wp.next_page = 0;
  blocks_[wp.block].state = BlockState::Active;
}

bool PageFtl::collect(uint32_t die, bool finish, FtlWork& work) {
  // (Two copies: outside bulk writes, the moves count and map with no test
  // of a lane on the way, as the timed GC and one thread's writes did.)
  return lane_ ? collect_in<true>(die, finish, work) : collect_in<false>(die, finish, work);
}

template <bool kLane>
bool PageFtl::collect_in(uint32_t die, bool finish, FtlWork& work) {
  Die& d = dies_[die];
  if (d.victim == kNone) {
    uint32_t victim = kNone;
    if (picker_.policy() == GcPolicy::Greedy) {  // the closed block with the fewest valid pages
      for (uint32_t v = 0; v < geo_.pages_per_block && victim == kNone; ++v) victim = d.bucket_head[v];
    } else if (!reclaimable_.empty()) {  // random, d-choice: by rank, without listing the die's blocks
      if (const uint32_t n = reclaimable_.count(die))
        victim = reclaimable_.nth(
            die, uint32_t(picker_.draw(n, [&](size_t k) { return blocks_[reclaimable_.nth(die, uint32_t(k))].valid; })));
    } else if (!oldest_.empty()) {  // fifo: closed longest ago (then the lowest id), as pick() would choose
      if (!oldest_[die].empty()) victim = oldest_[die].begin()->second;
    } else {  // cost-benefit: the best of each valid count's oldest
      victim = cost_benefit_victim(die);
    }
    if (victim == kNone) return false;  // every closed block is fully valid
    ++(kLane ? lane_->victims : victims_);
    (kLane ? lane_->victim_valid : victim_valid_) += blocks_[victim].valid;
    begin_victim(die, victim, false, work);
  }
  const uint32_t victim = d.victim;
  const uint32_t first = victim * geo_.pages_per_block;
  uint32_t budget = finish ? UINT32_MAX : d.victim_budget;
  Lane* const lane = kLane ? lane_ : nullptr;  // (a bulk write's thread: its own counters and map entries)
  FtlStats& stats = kLane ? lane->stats : stats_;
  uint64_t& seq = kLane ? lane->programs : seq_;
  uint64_t* const moved = d.victim_wl ? &wl_.pages_moved : &stats.gc_pages_moved;
  constexpr uint32_t kAhead = 16;  // overlap the random l2p accesses of the moves
  if (d.victim_cursor == 0)        // later slices find theirs prefetched by earlier ones
    for (uint32_t i = 0; i < kAhead && i < geo_.pages_per_block; ++i)
      if (p2l_[first + i] != kNone) __builtin_prefetch(&l2p_[p2l_[first + i]]);
  for (; d.victim_cursor < geo_.pages_per_block && budget > 0; ++d.victim_cursor) {
    const uint32_t i = d.victim_cursor, src = first + i;
    if (i + kAhead < geo_.pages_per_block && p2l_[src + kAhead] != kNone)
      __builtin_prefetch(&l2p_[p2l_[src + kAhead]], 1);
    const uint32_t lpn = p2l_[src];
    if (lpn == kNone) continue;
    uint32_t dst_block, dst_page;
    const Ppn dst = allocate(die, true, work, dst_block, dst_page);
    media_.program(BlockId(dst_block), dst_page, media_.read(BlockId(victim), i));
    p2l_[dst.v] = lpn;
    if constexpr (kLane)
      lane->map(l2p_, lpn, dst.v);
    else
      l2p_[lpn] = dst.v;
    ++blocks_[dst_block].valid;
    p2l_[src] = kNone;
    --blocks_[victim].valid;
    const int32_t read_index = static_cast<int32_t>(work.ops.size());
    work.add({FlashOp::Kind::Read, Ppn(src), true});
    work.add({FlashOp::Kind::Program, dst, true, read_index});
    work.cpu_cycles += params_.cycles.gc_page;
    work.map_writes += 1;
    ++*moved;
    ++stats.flash_pages_written;
    ++seq;
    --budget;
    on_moved(lpn);
  }
  if (d.victim_cursor < geo_.pages_per_block) return true;  // more slices to come
  // Every valid page has moved: erase once all of the victim's reads are done.
  media_.erase(BlockId(victim));
  work.add({FlashOp::Kind::Erase, Ppn(first), true, -1, true});
  blocks_[victim].state = BlockState::Free;
  d.free_blocks.push_back(victim);
  if (wl_.dynamic()) wl_.freed(die, victim);
  d.victim = kNone;
  ++(d.victim_wl ? wl_.moves : stats.gc_runs);
  d.victim_wl = false;
  if (wl_.static_on() && wl_.erased(die, victim)) d.wl_pending = true;
  return true;
}

uint32_t PageFtl::cost_benefit_victim(uint32_t die) {
  // An empty block at once (the lowest id), else the best score of the
  // buckets' oldest blocks, ties to the lowest id: pick()'s choice among
  // the die's listed blocks (bucket_oldest.h says why).
  auto oldest = [&](uint32_t v) {
    return bucket_oldest_.oldest(die, v, [&](auto&& each) {
      for (uint32_t b = dies_[die].bucket_head[v]; b != kNone; b = blocks_[b].next) each(b);
    });
  };
  uint32_t best = oldest(0);
  if (best != kNone) return best;
  for (uint32_t v = bucket_oldest_.next_occupied(die, 1); v < geo_.pages_per_block;
       v = bucket_oldest_.next_occupied(die, v + 1)) {
    const uint32_t b = oldest(v);
    if (b == kNone) continue;
    const int order = best == kNone ? 1
                                    : VictimPicker::cost_benefit_order(seq_ - closed_at_[b], v, seq_ - closed_at_[best],
                                                                       blocks_[best].valid, geo_.pages_per_block);
    if (order > 0 || (order == 0 && b < best)) best = b;
  }
  return best;
}

void PageFtl::begin_victim(uint32_t die, uint32_t victim, bool wear_levelling, FtlWork& work) {
  Die& d = dies_[die];
  bucket_remove(victim);
  blocks_[victim].state = BlockState::Victim;
  d.victim = victim;
  d.victim_cursor = 0;
  d.victim_wl = wear_levelling;
  // Moves per host write so the victim is free by the time the host has
  // filled as many pages as the victim gives back: valid / invalid. (A wear-
  // levelling victim may be fully valid; it is always moved whole.)
  const uint32_t valid = blocks_[victim].valid, invalid = geo_.pages_per_block - valid;
  d.victim_budget = invalid ? (valid + invalid - 1) / invalid : geo_.pages_per_block;
  work.cpu_cycles += params_.cycles.gc_victim;
}

bool PageFtl::level_wear(uint32_t die, FtlWork& work) {
  Die& d = dies_[die];
  // Not amid a GC victim, and with a block to spare for the move (it may need
  // one before the cold block comes back): otherwise later, still pending.
  if (d.victim != kNone || d.free_blocks.size() < 2) return false;
  d.wl_pending = false;
  const uint32_t cold = wl_.pick_cold(die);
  if (cold == kNone) return false;
  begin_victim(die, cold, true, work);
  collect(die, true, work);  // moves it whole and erases it (which checks the spread again)
  return true;
}

bool PageFtl::background(FtlWork& work) {
  // One slice: a pending wear-levelling move, else one whole GC victim (or
  // the rest of one) on a die below the background watermark; dies in turn,
  // passing over those another slice in flight is working on.
  for (uint32_t k = 0; k < geo_.dies(); ++k) {
    const uint32_t die = (bg_cursor_ + k) % geo_.dies();
    if (work.busy_dies && (*work.busy_dies)[die]) continue;
    Die& d = dies_[die];
    if (d.wl_pending && level_wear(die, work)) return bg_cursor_ = die, true;
    if (d.free_blocks.size() >= bg_threshold_) continue;
    const uint64_t moved = stats_.gc_pages_moved;
    if (!collect(die, true, work)) continue;  // nothing reclaimable here
    ++bg_runs_;
    bg_pages_ += stats_.gc_pages_moved - moved;
    bg_cursor_ = die;  // stay on it until it reaches the watermark
    return true;
  }
  return false;
}

std::vector<FtlStat> PageFtl::extra_stats() const {
  uint64_t free = 0, free_min = UINT64_MAX;
  for (const Die& d : dies_) free += d.free_blocks.size(), free_min = std::min<uint64_t>(free_min, d.free_blocks.size());
  const std::string policy = gc_policy_name(picker_.policy());
  return {
      {"gc_victims", double(victims_), "count", "victim blocks chosen by the " + policy + " GC policy"},
      {"gc_victim_valid_mean", victims_ ? double(victim_valid_) / double(victims_) : 0.0, "pages",
       "mean valid pages of a victim when chosen (pages GC had to copy per block)"},
      {"background_gc_runs", double(bg_runs_), "count", "GC victims collected in idle time"},
      {"background_gc_pages_moved", double(bg_pages_), "pages", "valid pages copied by idle-time GC"},
      {"wl_moves", double(wl_.moves), "count", "blocks of cold data moved by static wear levelling"},
      {"wl_pages_moved", double(wl_.pages_moved), "pages", "valid pages copied by static wear levelling"},
      {"free_blocks", double(free), "count", "free (erased) blocks on the drive at the end"},
      {"free_blocks_min_die", double(free_min), "count", "free blocks on the die with the fewest, at the end"},
  };
}

void PageFtl::reset_stats() {
  stats_ = FtlStats{};
  victims_ = victim_valid_ = bg_runs_ = bg_pages_ = 0;
  wl_.moves = wl_.pages_moved = 0;
}

void PageFtl::invalidate(uint32_t ppn) {
  p2l_[ppn] = kNone;
  const uint32_t b = ppn / geo_.pages_per_block;
  --die_valid_[b / geo_.blocks_per_die()];
  if (blocks_[b].state == BlockState::Closed) {  // re-file it under its new valid count
    const bool was_full = blocks_[b].valid == geo_.pages_per_block;
    bucket_unlink(b);
    --blocks_[b].valid;
    bucket_link(b);
    if (indexed_) {
      if (was_full) {
        mark_reclaimable(b, true);  // it has an invalid page now
      } else if (!bucket_oldest_.empty()) {  // cost-benefit: from one valid count's bucket to the next
        const uint32_t die = b / geo_.blocks_per_die();
        bucket_oldest_.left(die, blocks_[b].valid + 1u, b);
        bucket_oldest_.entered(die, blocks_[b].valid, b);
      }
    }
  } else {
    --blocks_[b].valid;
  }
}

void PageFtl::close_block(uint32_t block) {
  blocks_[block].state = BlockState::Closed;
  if (lane_)  // (its seq_ is known once the batch is done)
    lane_->closes.emplace_back(block, (uint64_t(lane_->write) << 32) + lane_->programs);
  else
    closed_at_[block] = seq_;
  bucket_insert(block);
}

void PageFtl::bucket_insert(uint32_t block) {
  if (indexed_ && is_reclaimable(block)) mark_reclaimable(block, true);
  wl_.closed(block / geo_.blocks_per_die(), block, true);
  bucket_link(block);
}

void PageFtl::bucket_remove(uint32_t block) {
  if (indexed_ && is_reclaimable(block)) mark_reclaimable(block, false);
  wl_.closed(block / geo_.blocks_per_die(), block, false);
  bucket_unlink(block);
}

void PageFtl::bucket_link(uint32_t block) {
  BlockInfo& info = blocks_[block];
  uint32_t& head = dies_[block / geo_.blocks_per_die()].bucket_head[info.valid];
  info.prev = kNone;
  info.next = head;
  if (head != kNone) blocks_[head].prev = block;
  head = block;
}

void PageFtl::bucket_unlink(uint32_t block) {
  BlockInfo& info = blocks_[block];
  if (info.prev != kNone)
    blocks_[info.prev].next = info.next;
  else
    dies_[block / geo_.blocks_per_die()].bucket_head[info.valid] = info.next;
  if (info.next != kNone) blocks_[info.next].prev = info.prev;
  info.next = info.prev = kNone;
}

void PageFtl::mark_reclaimable(uint32_t block, bool in) {
  if (!reclaimable_.empty()) reclaimable_.add(block, in ? +1 : -1);
  if (!bucket_oldest_.empty()) {
    const uint32_t die = block / geo_.blocks_per_die();
    if (in)
      bucket_oldest_.entered(die, blocks_[block].valid, block);
    else
      bucket_oldest_.left(die, blocks_[block].valid, block);
  }
  if (!oldest_.empty()) {
    auto& by_age = oldest_[block / geo_.blocks_per_die()];
    if (in)
      by_age.emplace(closed_at_[block], block);
    else
      by_age.erase({closed_at_[block], block});
  }
}

void PageFtl::rebuild_indexes() {
  if (wl_.dynamic())
    for (uint32_t d = 0; d < geo_.dies(); ++d) wl_.count_free(d, dies_[d].free_blocks);
  wl_.index([this](uint32_t b) { return is_closed(b); });
  indexed_ = picker_.policy() != GcPolicy::Greedy;
  if (!indexed_) return;
  if (picker_.draws()) reclaimable_.reset(geo_.dies(), geo_.blocks_per_die());
  if (picker_.policy() == GcPolicy::Fifo) oldest_.assign(geo_.dies(), {});
  if (picker_.policy() == GcPolicy::CostBenefit) bucket_oldest_.reset(geo_.dies(), geo_.pages_per_block, &closed_at_);
  for (uint32_t b = 0; b < geo_.blocks(); ++b)
    if (is_reclaimable(b)) mark_reclaimable(b, true);
}

void PageFtl::check_consistency() const {
  auto fail = [](const std::string& what) { throw std::logic_error("page FTL inconsistent: " + what); };
  std::vector<uint32_t> count(geo_.blocks(), 0);
  for (uint64_t l = 0; l < l2p_.size(); ++l) {
    const uint32_t p = l2p_[l];
    if (p == kNone) continue;
    if (p2l_[p] != l) fail("l2p[" + std::to_string(l) + "] -> " + std::to_string(p) + " but p2l disagrees");
    if (!media_.is_programmed(Ppn(p))) fail("LPN " + std::to_string(l) + " maps to an erased page");
    ++count[p / geo_.pages_per_block];
  }
  std::vector<uint64_t> per_die(geo_.dies(), 0);
  for (uint32_t b = 0; b < geo_.blocks(); ++b) per_die[b / geo_.blocks_per_die()] += count[b];
  for (uint32_t d = 0; d < geo_.dies(); ++d)
    if (per_die[d] != die_valid_[d] || die_valid_[d] > die_cap_)
      fail("die " + std::to_string(d) + " valid pages " + std::to_string(die_valid_[d]) + ", mapped " +
           std::to_string(per_die[d]) + ", cap " + std::to_string(die_cap_));
  for (uint32_t b = 0; b < geo_.blocks(); ++b)
    if (count[b] != blocks_[b].valid) fail("block " + std::to_string(b) + " valid count " + std::to_string(blocks_[b].valid) +
                                    ", mapped pages " + std::to_string(count[b]));
  for (uint32_t d = 0; d < geo_.dies(); ++d) {
    const Die& die = dies_[d];
    uint64_t closed = 0, listed = 0, states[4] = {0, 0, 0, 0};
    for (uint32_t v = 0; v <= geo_.pages_per_block; ++v)
      for (uint32_t b = die.bucket_head[v]; b != kNone; b = blocks_[b].next, ++listed)
        if (blocks_[b].valid != v || blocks_[b].state != BlockState::Closed || listed > geo_.blocks_per_die())
          fail("bucket list of die " + std::to_string(d));
    for (uint32_t b = d * geo_.blocks_per_die(); b < (d + 1) * geo_.blocks_per_die(); ++b) ++states[size_t(blocks_[b].state)];
    closed = states[size_t(BlockState::Closed)];
    for (uint32_t b : die.free_blocks)
      if (blocks_[b].state != BlockState::Free || media_.is_programmed(geo_.first_page(BlockId(b))))
        fail("free list of die " + std::to_string(d) + " holds block " + std::to_string(b) + " that is not erased");
    const uint64_t open = (die.host.block != kNone) + (die.gc.block != kNone);
    if (listed != closed || die.free_blocks.size() != states[size_t(BlockState::Free)] ||
        open != states[size_t(BlockState::Active)] || (die.victim != kNone) != states[size_t(BlockState::Victim)])
      fail("die " + std::to_string(d) + " block states: " + std::to_string(states[0]) + " free (" +
           std::to_string(die.free_blocks.size()) + " listed), " + std::to_string(states[1]) + " open (" +
           std::to_string(open) + " write points), " + std::to_string(closed) + " closed (" + std::to_string(listed) +
           " in buckets), " + std::to_string(states[3]) + " victims");
    if (!indexed_) continue;
    if (!bucket_oldest_.empty()) {  // cost-benefit: each bucket's front is its oldest members, in order
      for (uint32_t v = 0; v < geo_.pages_per_block; ++v) {
        std::vector<uint32_t> members;
        for (uint32_t b = die.bucket_head[v]; b != kNone; b = blocks_[b].next) members.push_back(b);
        std::sort(members.begin(), members.end(),
                  [&](uint32_t a, uint32_t b) { return bucket_oldest_.older(v, a, b); });
        bool complete = false;
        const std::vector<uint32_t> front = bucket_oldest_.front(d, v, complete);
        // (Not complete may still hold them all: the last one beyond may have left.)
        if (front.size() > members.size() || !std::equal(front.begin(), front.end(), members.begin()) ||
            (complete && front.size() != members.size()) ||
            (!members.empty() && bucket_oldest_.next_occupied(d, v) != v))
          fail("oldest blocks of die " + std::to_string(d) + "'s bucket " + std::to_string(v) + ": " +
               std::to_string(front.size()) + " kept" + (complete ? " (all)" : "") + ", " +
               std::to_string(members.size()) + " in it, or out of order");
      }
      continue;
    }
    // The kept index holds the die's reclaimable blocks: each at its rank
    // (random, d-choice), each under its closing time (fifo).
    uint32_t n = 0;
    for (uint32_t b = d * geo_.blocks_per_die(); b < (d + 1) * geo_.blocks_per_die(); ++b) {
      if (!is_reclaimable(b)) continue;
      if (!reclaimable_.empty() && (n >= reclaimable_.count(d) || reclaimable_.nth(d, n) != b))
        fail("rank index of die " + std::to_string(d) + " at block " + std::to_string(b));
      if (!oldest_.empty() && !oldest_[d].count({closed_at_[b], b}))
        fail("age index of die " + std::to_string(d) + " lacks block " + std::to_string(b));
      ++n;
    }
    const uint64_t kept = !reclaimable_.empty() ? reclaimable_.count(d) : oldest_[d].size();
    if (n != kept)
      fail("index of die " + std::to_string(d) + ": " + std::to_string(kept) + " blocks, " + std::to_string(n) +
           " reclaimable");
  }
  if (const char* off = wl_.check([this](uint32_t b) { return is_closed(b); })) fail(off);
}

bool PageFtl::checkpoint(Checkpoint& c) {
  c.section("page FTL");
  c.expect(user_pages_, "user pages");
  c.expect(die_cap_, "valid pages a die may hold");
  c.table(l2p_, "mapping table entries");
  c.table(p2l_, "flash pages");
  c.table(blocks_, "blocks");
  c.table(closed_at_, "blocks");
  c.table(die_valid_, "dies");
  c.expect<uint64_t>(dies_.size(), "dies");
  for (Die& d : dies_) {
    c.list<uint32_t>(d.free_blocks, geo_.blocks_per_die(), "a die's free blocks");
    c.value(d.host);
    c.value(d.gc);
    c.table(d.bucket_head, "valid-count buckets");
    c.value(d.victim);
    c.value(d.victim_cursor);
    c.value(d.victim_budget);
    c.value(d.victim_wl);
    c.value(d.wl_pending);
  }
  c.value(cursor_.die);
  c.value(cursor_.turn);
  c.value(multi_page_);
  c.value(stats_);
  c.value(picker_);
  wl_.checkpoint(c);
  c.value(seq_);
  c.value(bg_cursor_);
  c.value(victims_);
  c.value(victim_valid_);
  c.value(bg_runs_);
  c.value(bg_pages_);
  if (c.loading() && cursor_.die >= geo_.dies()) c.fail("die cursor beyond the dies");
  if (c.loading()) rebuild_indexes();  // (derived from the blocks: not in the file)
  return true;
}

}  // namespace ssd::ftl
