#include "model/ftl/page/page_ftl.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

namespace {
FtlRegistration registration(
    "page", "page-level mapping, greedy GC on a free-block watermark, TRIM",
    [](const FtlParams& p, FlashMedia& m) { return std::make_unique<PageFtl>(p, m); });
}

PageFtl::PageFtl(const FtlParams& p, FlashMedia& media)
    : params_(p), geo_(p.geometry), media_(media),
      user_pages_(user_pages_for(geo_, p.over_provisioning)) {
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
  valid_.assign(geo_.blocks(), 0);
  state_.assign(geo_.blocks(), BlockState::Free);
  bnext_.assign(geo_.blocks(), kNone);
  bprev_.assign(geo_.blocks(), kNone);
  dies_.resize(geo_.dies());
  for (uint32_t d = 0; d < geo_.dies(); ++d) {
    dies_[d].bucket_head.assign(geo_.pages_per_block + 1, kNone);
    for (uint32_t b = 0; b < geo_.blocks_per_die(); ++b) dies_[d].free_blocks.push_back(geo_.block(DieId(d), b).v);
  }
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
  // The host page waits for any GC this write triggered (foreground GC).
  work.add({FlashOp::Kind::Program, ppn, false, -1, after_gc});
}

Ppn PageFtl::place(uint32_t id, const PageContent& content, FtlWork& work, bool& after_gc) {
  // Round-robin over dies, skipping a die that is full of valid data.
  uint32_t die = die_cursor_;
  for (uint32_t tries = 0; die_valid_[die] >= die_cap_; ++tries) {
    if (tries == geo_.dies()) throw std::logic_error("page FTL: no die can accept a write (drive full)");
    die = (die + 1) % geo_.dies();
  }
  die_cursor_ = (die + 1) % geo_.dies();

  const uint64_t moved_before = stats_.gc_pages_moved, runs_before = stats_.gc_runs;
  // At the watermark, every host write on the die pays a slice of GC.
  if (dies_[die].free_blocks.size() <= params_.gc_threshold) collect(die, false, work);
  uint32_t block, page;
  const Ppn ppn = allocate(die, false, work, block, page);
  media_.program(BlockId(block), page, content);
  p2l_[ppn.v] = id;
  l2p_[id] = ppn.v;
  ++valid_[block];
  ++die_valid_[die];
  ++stats_.flash_pages_written;
  after_gc = stats_.gc_pages_moved != moved_before || stats_.gc_runs != runs_before;
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
  WritePoint& wp = for_gc ? d.gc : d.host;
  if (wp.block == kNone || wp.next_page == geo_.pages_per_block) {
    if (wp.block != kNone) close_block(wp.block);
    // Host data never takes the last blocks: below the watermark GC runs to
    // completion first, and at least one block always stays for GC, which
    // draws on that reserve (it opens at most one block per victim, and the
    // victim's own block comes back before it needs another).
    if (!for_gc)
      while ((d.free_blocks.size() < params_.gc_threshold || d.free_blocks.size() < 2) && collect(die, true, work)) {
      }
    if (d.free_blocks.empty()) throw std::logic_error("page FTL: die " + std::to_string(die) + " has no free block");
    wp.block = d.free_blocks.front();
    d.free_blocks.pop_front();
    wp.next_page = 0;
    state_[wp.block] = BlockState::Active;
  }
  block = wp.block;
  page = wp.next_page++;
  return Ppn(block * geo_.pages_per_block + page);
}

bool PageFtl::collect(uint32_t die, bool finish, FtlWork& work) {
  Die& d = dies_[die];
  if (d.victim == kNone) {
    // Greedy: the closed block with the fewest valid pages.
    uint32_t victim = kNone;
    for (uint32_t v = 0; v < geo_.pages_per_block && victim == kNone; ++v) victim = d.bucket_head[v];
    if (victim == kNone) return false;  // every closed block is fully valid
    bucket_remove(victim);
    state_[victim] = BlockState::Victim;
    d.victim = victim;
    d.victim_cursor = 0;
    // Moves per host write so the victim is free by the time the host has
    // filled as many pages as the victim gives back: valid / invalid.
    const uint32_t valid = valid_[victim], invalid = geo_.pages_per_block - valid;
    d.victim_budget = (valid + invalid - 1) / invalid;
    work.cpu_cycles += params_.cycles.gc_victim;
  }
  const uint32_t victim = d.victim;
  const uint32_t first = victim * geo_.pages_per_block;
  uint32_t budget = finish ? UINT32_MAX : d.victim_budget;
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
    l2p_[lpn] = dst.v;
    ++valid_[dst_block];
    p2l_[src] = kNone;
    --valid_[victim];
    const int32_t read_index = static_cast<int32_t>(work.ops.size());
    work.add({FlashOp::Kind::Read, Ppn(src), true});
    work.add({FlashOp::Kind::Program, dst, true, read_index});
    work.cpu_cycles += params_.cycles.gc_page;
    work.map_writes += 1;
    ++stats_.gc_pages_moved;
    ++stats_.flash_pages_written;
    --budget;
    moved(lpn);
  }
  if (d.victim_cursor < geo_.pages_per_block) return true;  // more slices to come
  // Every valid page has moved: erase once all of the victim's reads are done.
  media_.erase(BlockId(victim));
  work.add({FlashOp::Kind::Erase, Ppn(first), true, -1, true});
  state_[victim] = BlockState::Free;
  d.free_blocks.push_back(victim);
  d.victim = kNone;
  ++stats_.gc_runs;
  return true;
}

void PageFtl::invalidate(uint32_t ppn) {
  p2l_[ppn] = kNone;
  const uint32_t b = ppn / geo_.pages_per_block;
  --die_valid_[b / geo_.blocks_per_die()];
  if (state_[b] == BlockState::Closed) {  // re-file it under its new valid count
    bucket_remove(b);
    --valid_[b];
    bucket_insert(b);
  } else {
    --valid_[b];
  }
}

void PageFtl::close_block(uint32_t block) {
  state_[block] = BlockState::Closed;
  bucket_insert(block);
}

void PageFtl::bucket_insert(uint32_t block) {
  uint32_t& head = dies_[block / geo_.blocks_per_die()].bucket_head[valid_[block]];
  bprev_[block] = kNone;
  bnext_[block] = head;
  if (head != kNone) bprev_[head] = block;
  head = block;
}

void PageFtl::bucket_remove(uint32_t block) {
  if (bprev_[block] != kNone)
    bnext_[bprev_[block]] = bnext_[block];
  else
    dies_[block / geo_.blocks_per_die()].bucket_head[valid_[block]] = bnext_[block];
  if (bnext_[block] != kNone) bprev_[bnext_[block]] = bprev_[block];
  bnext_[block] = bprev_[block] = kNone;
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
    if (count[b] != valid_[b]) fail("block " + std::to_string(b) + " valid count " + std::to_string(valid_[b]) +
                                    ", mapped pages " + std::to_string(count[b]));
  for (uint32_t d = 0; d < geo_.dies(); ++d)
    for (uint32_t v = 0; v <= geo_.pages_per_block; ++v)
      for (uint32_t b = dies_[d].bucket_head[v]; b != kNone; b = bnext_[b])
        if (valid_[b] != v || state_[b] != BlockState::Closed) fail("bucket list of die " + std::to_string(d));
}

}  // namespace ssd::ftl
