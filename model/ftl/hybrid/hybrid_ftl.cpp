#include "model/ftl/hybrid/hybrid_ftl.h"

#include "model/ftl/steady_written.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

std::vector<FtlOptionSpec> HybridFtl::options() {
  return {{"ftl.log_blocks", "4", "count",
           "hybrid FTLs: log blocks per die, or per die group with ftl.hybrid.stripe (BAST: one per logical block "
           "being updated; FAST: one sequential, the rest random)"},
          {"ftl.hybrid.idle_merge", "true", "bool",
           "hybrid FTLs: merge the fullest (then oldest) log block while the host is idle (with ftl.idle_after)", true},
          {"ftl.hybrid.interleave", "false", "bool",
           "hybrid FTLs: consecutive LPNs on consecutive dies (die groups): LPN % dies picks the die, whose "
           "logical blocks are made of every dies-th LPN (the OpenSSD Jasmine FTLs' lpn % NUM_BANKS), so sequential "
           "data spreads over every die while a merge stays one block on one die"},
          {"ftl.hybrid.stripe", "1", "count",
           "hybrid FTLs: dies a logical block is striped over (its page k on die k % stripe of its group, at page "
           "k / stripe); a logical block, a log block and a merge span the group, and log_blocks counts per group"}};
}

namespace {
// The engine's geometry under ftl.hybrid.stripe = s: dies / s groups, block
// sets of s x P pages (throws FtlConfigError unless s divides the dies).
FlashGeometry grouped(const FtlParams& p) {
  const double s = p.options.get("ftl.hybrid.stripe");
  const uint32_t dies = p.geometry.dies();
  if (s < 1 || s > dies || s != std::floor(s) || dies % uint32_t(s)) {
    char v[32];
    std::snprintf(v, sizeof v, "%g", s);  // as the user wrote it
    throw FtlConfigError("ftl.hybrid.stripe", "a logical block must stripe over a divisor of the " +
                                                  std::to_string(dies) + " dies, not " + v);
  }
  FlashGeometry g = p.geometry;
  g.channels = 1;
  g.dies_per_channel = dies / uint32_t(s);
  if (uint64_t(g.pages_per_block) * uint32_t(s) > UINT16_MAX)
    throw FtlConfigError("ftl.hybrid.stripe", "stripe x pages_per_block is over 65535 pages per logical block");
  g.pages_per_block *= uint32_t(s);
  return g;
}
}  // namespace

uint32_t HybridFtl::eng(uint32_t lpn) const {
  if (!interleave_) return lpn;
  const uint32_t g = lpn % interleave_, i = lpn / interleave_;
  return (i / ppb_ * interleave_ + g) * ppb_ + i % ppb_;
}

uint32_t HybridFtl::host(uint32_t lpn) const {
  if (!interleave_) return lpn;
  const uint32_t lb = lpn / ppb_, k = lpn % ppb_;
  return (lb / interleave_ * ppb_ + k) * interleave_ + lb % interleave_;
}

Ppn HybridFtl::phys(uint32_t ppn) const {
  if (stripe_ == 1) return Ppn(ppn);
  const uint32_t k = ppn % ppb_;
  return Ppn(phys_.first_page(phys_block(ppn / ppb_, k % stripe_)).v + k / stripe_);
}

BlockId HybridFtl::phys_block(uint32_t block, uint32_t k) const {
  const uint32_t bpd = phys_.blocks_per_die();
  return phys_.block(DieId(block / bpd * stripe_ + k), block % bpd);
}

HybridFtl::Layout HybridFtl::layout(const FtlParams& p, Scheme scheme) {
  const FlashGeometry g = grouped(p);
  const uint32_t ppb = g.pages_per_block;
  const uint64_t user_pages = user_pages_for(p);
  Layout l;
  l.ppb = ppb;
  // Interleaved, the engine's LPN space is whole rows of a logical block on
  // every die: the host's LPNs map into its first user_pages_.
  l.interleave = p.options.get("ftl.hybrid.interleave") != 0 ? g.dies() : 0;
  const uint64_t row = uint64_t(ppb) * (l.interleave ? l.interleave : 1);
  l.engine_pages = l.interleave ? (user_pages + row - 1) / row * row : user_pages;
  if (l.engine_pages >= kNone) throw std::invalid_argument("hybrid FTL: more than 2^32 logical pages");
  if (g.pages() >= kNone) throw std::invalid_argument("more than 2^32 flash pages");
  if (ppb > UINT16_MAX) throw std::invalid_argument("hybrid FTL: more than 65535 pages per block");
  l.logical_blocks = uint32_t((l.engine_pages + ppb - 1) / ppb);
  const uint32_t dies = l.dies = g.dies();
  // Die 0 serves the most logical blocks (L % dies == 0): its spare is the least.
  const uint32_t lb_per_die = (l.logical_blocks + dies - 1) / dies;
  const uint32_t spare = g.blocks_per_die() > lb_per_die ? g.blocks_per_die() - lb_per_die : 0;
  const double k = p.options.get("ftl.log_blocks");
  const uint32_t least = scheme == Scheme::Fast ? 2 : 1;
  if (k < least)
    throw FtlConfigError("ftl.log_blocks", "ftl.log_blocks=" + std::to_string(uint64_t(k)) + ": the " +
                                               (scheme == Scheme::Fast ? std::string("fast FTL needs at least 2 log "
                                                                                     "blocks per die (one sequential, "
                                                                                     "one random)")
                                                                       : std::string("bast FTL needs at least 1 log "
                                                                                     "block per die")));
  // A full merge writes a fresh block while the old data block and the log
  // still hold theirs: one spare block beyond the log pool.
  if (spare < 1 || k > spare - 1)
    throw FtlConfigError("ftl.log_blocks", "ftl.log_blocks=" + std::to_string(uint64_t(k)) + " exceeds the " +
                                               std::to_string(spare) +
                                               " spare blocks per die less the one a full merge needs (at most " +
                                               std::to_string(spare ? spare - 1 : 0) + ")");
  l.pool = uint32_t(k);
  return l;
}

uint64_t HybridFtl::table_bytes(const FtlParams& p, Scheme scheme) {
  // The block map, and for every log block its owner and its page map.
  const Layout l = layout(p, scheme);
  return (uint64_t(l.logical_blocks) + uint64_t(l.dies) * l.pool * (uint64_t(l.ppb) + 1)) * p.map_entry_bytes;
}

HybridFtl::HybridFtl(const FtlParams& p, FlashMedia& media, Scheme scheme)
    : params_(p), phys_(p.geometry), geo_(grouped(p)), stripe_(phys_.dies() / geo_.dies()), media_(media),
      scheme_(scheme), ppb_(geo_.pages_per_block), user_pages_(user_pages_for(p)) {
  const Layout l = layout(p, scheme);
  interleave_ = l.interleave;
  engine_pages_ = l.engine_pages;
  logical_blocks_ = l.logical_blocks;
  pool_ = l.pool;
  const uint32_t dies = geo_.dies();
  idle_merge_ = p.options.get("ftl.hybrid.idle_merge") != 0;

  l2p_.assign(engine_pages_, kNone);
  p2l_.assign(geo_.pages(), kNone);
  trimmed_.assign(engine_pages_, false);
  data_.assign(logical_blocks_, kNone);
  log_of_.assign(logical_blocks_, kNone);
  valid_.assign(geo_.blocks(), 0);
  role_.assign(geo_.blocks(), Role::Free);
  logs_.resize(size_t(dies) * pool_);
  dies_.resize(dies);
  for (uint32_t d = 0; d < dies; ++d)
    for (uint32_t b = 0; b < geo_.blocks_per_die(); ++b) dies_[d].free_blocks.push_back(geo_.block(DieId(d), b).v);
}

uint32_t HybridFtl::lb_pages(uint32_t lb) const {
  return uint32_t(std::min<uint64_t>(ppb_, engine_pages_ - uint64_t(lb) * ppb_));
}

uint64_t HybridFtl::map_bytes() const { return table_bytes(params_, scheme_); }

void HybridFtl::read(Lpn host_lpn, FtlWork& work) {
  const Lpn lpn(eng(host_lpn.v));
  work.cpu_cycles += params_.cycles.lookup;
  // The block map entry, and the log page map when a log may hold the page.
  const uint32_t lb = lpn.v / ppb_;
  const bool logs = scheme_ == Scheme::Bast ? log_of_[lb] != kNone : !dies_[die_of_lb(lb)].logs.empty();
  work.map_reads += logs ? 2 : 1;
  const uint32_t ppn = l2p_[lpn.v];
  if (ppn == kNone) {
    ++stats_.unmapped_reads;
    return;
  }
  work.add({FlashOp::Kind::Read, phys(ppn)});
}

void HybridFtl::write(Lpn host_lpn, uint64_t version, FtlWork& work) {
  const Lpn lpn(eng(host_lpn.v));
  work.cpu_cycles += params_.cycles.lookup + params_.cycles.map_update;
  work.map_reads += 1;   // block map entry
  work.map_writes += 1;  // log page map entry
  if (scheme_ == Scheme::Bast)
    write_bast(lpn.v, version, work);
  else
    write_fast(lpn.v, version, work);
}

void HybridFtl::trim(Lpn host_lpn, FtlWork& work) {
  const Lpn lpn(eng(host_lpn.v));
  work.cpu_cycles += params_.cycles.lookup + params_.cycles.map_update;
  work.map_reads += 1;
  const uint32_t ppn = l2p_[lpn.v];
  if (ppn == kNone) return;
  work.map_writes += 1;
  invalidate(ppn);
  l2p_[lpn.v] = kNone;
  trimmed_[lpn.v] = true;
  ++stats_.trimmed_pages;
}

uint32_t HybridFtl::open_log(uint32_t die, uint32_t owner, bool sequential, FtlWork& work, bool& merged) {
  Die& d = dies_[die];
  // BAST: the die's oldest log. FAST: the oldest random log (the
  // sequential one has a slot of its own and is never the victim here).
  for (;;) {
    const size_t random = d.logs.size() - (d.seq != kNone ? 1 : 0);
    const bool full = scheme_ == Scheme::Bast ? d.logs.size() >= pool_ : !sequential && random >= pool_ - 1;
    if (!full) break;
    uint32_t victim = kNone;
    for (uint32_t s : d.logs)
      if (!logs_[s].sequential) {
        victim = s;
        break;
      }
    merge_log(victim, work);
    merged = true;
  }
  uint32_t slot = die * pool_;
  while (logs_[slot].block != kNone) ++slot;
  if (d.free_blocks.empty()) throw std::logic_error("hybrid FTL: die " + std::to_string(die) + " has no free block");
  Log& g = logs_[slot];
  g.block = d.free_blocks.front();
  d.free_blocks.pop_front();
  role_[g.block] = Role::Log;
  g.owner = owner;
  g.used = 0;
  g.in_order = owner != kNone;
  g.sequential = sequential;
  g.born = ++clock_;
  g.lpns.assign(ppb_, kNone);
  d.logs.push_back(slot);
  return slot;
}

void HybridFtl::append(uint32_t slot, uint32_t lpn, uint64_t version, FtlWork& work, bool after_merge) {
  Log& g = logs_[slot];
  const uint32_t page = g.used++;
  const uint32_t ppn = g.block * ppb_ + page;
  program(g.block, page, {host(lpn), version});  // the spare area names the host's LPN
  if (l2p_[lpn] != kNone) invalidate(l2p_[lpn]);
  l2p_[lpn] = ppn;
  p2l_[ppn] = lpn;
  ++valid_[g.block];
  g.lpns[page] = lpn;
  g.in_order = g.in_order && lpn / ppb_ == g.owner && lpn % ppb_ == page;
  trimmed_[lpn] = false;
  ++stats_.host_pages_written;
  ++stats_.flash_pages_written;
  // The host page waits for the merges its write caused (foreground merge).
  work.add({FlashOp::Kind::Program, phys(ppn), false, -1, after_merge});
}

void HybridFtl::merge_log(uint32_t slot, FtlWork& work) {
  Log& g = logs_[slot];
  work.cpu_cycles += params_.cycles.gc_victim;
  if (g.owner == kNone) {
    // FAST random log: fully merge every logical block with a valid page in
    // it (their pages in other logs move too); then it holds nothing valid.
    std::vector<uint32_t> lbs;
    for (uint32_t i = 0; i < g.used; ++i)
      if (p2l_[g.block * ppb_ + i] == g.lpns[i] && std::find(lbs.begin(), lbs.end(), g.lpns[i] / ppb_) == lbs.end())
        lbs.push_back(g.lpns[i] / ppb_);
    for (uint32_t lb : lbs) {
      full_merge(lb, work);
      // A sequential log of this logical block has had all its pages copied.
      const uint32_t seq = dies_[die_of_lb(lb)].seq;
      if (seq != kNone && logs_[seq].owner == lb) {
        erase_block(logs_[seq].block, work);
        release(seq);
      }
    }
  } else if (g.in_order) {
    return merge_in_place(slot, work);
  } else {
    full_merge(g.owner, work);
  }
  erase_block(g.block, work);
  release(slot);
}

void HybridFtl::merge_in_place(uint32_t slot, FtlWork& work) {
  Log& g = logs_[slot];
  const uint32_t lb = g.owner, first = lb * ppb_, n = lb_pages(lb);
  // Copy the logical block's latest pages behind the log's prefix, up to its
  // last valid page; trimmed ones (past it too) are skipped.
  const uint32_t last = data_end(first, g.used, n);
  const uint64_t copied = merges_.copied, padded = merges_.padded;
  copy_range(first, g.used, last, g.block, work);
  for (uint32_t off = last; off < n; ++off)
    if (trimmed_[first + off]) ++merges_.trimmed_skipped, trimmed_[first + off] = false;
  ++(merges_.copied == copied && merges_.padded == padded ? merges_.switches : merges_.partials);
  const uint32_t old = data_[lb];
  data_[lb] = g.block;
  role_[g.block] = Role::Data;
  work.map_writes += 1;  // the block map entry
  ++stats_.gc_runs;
  if (old != kNone) erase_block(old, work);  // every page of it is superseded or copied
  release(slot);
}

void HybridFtl::full_merge(uint32_t lb, FtlWork& work) {
  const uint32_t first = lb * ppb_, n = lb_pages(lb), die = die_of_lb(lb);
  const uint32_t last = data_end(first, 0, n);
  uint32_t block = kNone;
  if (last > 0) {  // else every page is trimmed: no new data block
    Die& d = dies_[die];
    if (d.free_blocks.empty()) throw std::logic_error("hybrid FTL: die " + std::to_string(die) + " has no free block");
    block = d.free_blocks.front();
    d.free_blocks.pop_front();
    role_[block] = Role::Data;
  }
  copy_range(first, 0, last, block, work);
  for (uint32_t off = last; off < n; ++off)
    if (trimmed_[first + off]) ++merges_.trimmed_skipped, trimmed_[first + off] = false;
  ++merges_.fulls;
  ++stats_.gc_runs;
  work.map_writes += 1;
  const uint32_t old = data_[lb];
  data_[lb] = block;
  if (old != kNone) erase_block(old, work);
}

uint32_t HybridFtl::data_end(uint32_t first, uint32_t from, uint32_t n) const {
  // From the top down: the last page nearly always has data.
  uint32_t end = std::max(n, from);
  while (end > from && l2p_[first + end - 1] == kNone) --end;
  return end;
}
void HybridFtl::copy_range(uint32_t first, uint32_t from, uint32_t to, uint32_t block, FtlWork& work) {
  if (from >= to) return;  // (a full merge of a logical block left with no page: no block)
  bool barrier = !work.ops.empty();
  if (work.record_ops || media_.tracks_content()) {
    for (uint32_t off = from; off < to; ++off) copy_into(first + off, block, off, barrier, work);
    return;
  }
  // Functional, no content: copy_into's state changes without the flash
  // reads, programs and ops, and the block's pages programmed in one step.
  // Most pages come from the logical block's data block: its valid count
  // is taken down once, not with a division per page.
  const uint32_t data = data_[first / ppb_];
  const uint64_t data_first = data == kNone ? UINT64_MAX - ppb_ : uint64_t(data) * ppb_;  // none: never matches
  uint32_t copied = 0, from_data = 0;
  for (uint32_t off = from; off < to; ++off) {
    const uint32_t lpn = first + off, src = l2p_[lpn], dst = block * ppb_ + off;
    if (src == kNone) {
      if (trimmed_[lpn]) ++merges_.trimmed_skipped, trimmed_[lpn] = false;
      ++merges_.padded;
      continue;
    }
    if (uint64_t(src) - data_first < ppb_)
      ++from_data;
    else
      --valid_[src / ppb_];
    p2l_[src] = kNone;
    l2p_[lpn] = dst;
    p2l_[dst] = lpn;
    ++copied;
  }
  if (from_data) valid_[data] = uint16_t(valid_[data] - from_data);
  valid_[block] = uint16_t(valid_[block] + copied);
  merges_.copied += copied;
  stats_.gc_pages_moved += copied;
  stats_.flash_pages_written += to - from;
  work.cpu_cycles += uint64_t(to - from) * params_.cycles.gc_page;
  // Member k of the block set holds the block's pages k, k + stripe, ...
  const auto on_member = [&](uint32_t n, uint32_t k) { return n > k ? (n - 1 - k) / stripe_ + 1 : 0; };
  for (uint32_t k = 0; k < stripe_; ++k)
    media_.program_untracked(phys_block(block, k), on_member(to, k) - on_member(from, k));
}
void HybridFtl::copy_into(uint32_t lpn, uint32_t block, uint32_t page, bool& barrier, FtlWork& work) {
  const uint32_t dst = block * ppb_ + page, src = l2p_[lpn];
  work.cpu_cycles += params_.cycles.gc_page;
  ++stats_.flash_pages_written;
  if (src == kNone) {
    // A hole below a page still to copy: program a pad (in-order programming).
    if (trimmed_[lpn]) ++merges_.trimmed_skipped, trimmed_[lpn] = false;
    program(block, page, PageContent{});
    ++merges_.padded;
    // After the previous op: the block's previous page (or its erase).
    work.add({FlashOp::Kind::Program, phys(dst), true, work.ops.empty() ? -1 : int32_t(work.ops.size() - 1), barrier});
    barrier = false;
    return;
  }
  program(block, page, media_.read(phys(src)));
  invalidate(src);
  l2p_[lpn] = dst;
  p2l_[dst] = lpn;
  ++valid_[block];
  ++merges_.copied;
  ++stats_.gc_pages_moved;
  const int32_t read_index = int32_t(work.ops.size());
  work.add({FlashOp::Kind::Read, phys(src), true, -1, barrier});
  work.add({FlashOp::Kind::Program, phys(dst), true, read_index});
  barrier = false;
}

void HybridFtl::erase_block(uint32_t block, FtlWork& work) {
  if (valid_[block] != 0)
    throw std::logic_error("hybrid FTL: erasing block " + std::to_string(block) + " with " +
                           std::to_string(valid_[block]) + " valid pages");
  role_[block] = Role::Free;
  dies_[die_of_block(block)].free_blocks.push_back(block);
  for (uint32_t k = 0; k < stripe_; ++k) {  // after every read; a set's erases side by side
    media_.erase(phys_block(block, k));
    FlashOp e{FlashOp::Kind::Erase, phys_.first_page(phys_block(block, k)), true, -1, true};
    e.sibling = k > 0;
    work.add(e);
  }
}

void HybridFtl::release(uint32_t slot) {
  Log& g = logs_[slot];
  Die& d = dies_[die_of_block(g.block)];
  d.logs.erase(std::find(d.logs.begin(), d.logs.end(), slot));
  if (d.seq == slot) d.seq = kNone;
  if (d.cur == slot) d.cur = kNone;
  if (scheme_ == Scheme::Bast && g.owner != kNone && log_of_[g.owner] == slot) log_of_[g.owner] = kNone;
  g = Log{};
}

void HybridFtl::invalidate(uint32_t ppn) {
  p2l_[ppn] = kNone;
  --valid_[ppn / ppb_];
}

bool HybridFtl::background(FtlWork& work) {
  if (!idle_merge_) return false;
  uint32_t best = kNone;
  for (uint32_t s = 0; s < logs_.size(); ++s) {
    const Log& g = logs_[s];
    if (g.block == kNone) continue;
    if (best == kNone || g.used > logs_[best].used || (g.used == logs_[best].used && g.born < logs_[best].born))
      best = s;
  }
  if (best == kNone) return false;
  merge_log(best, work);
  return true;
}

std::vector<FtlStat> HybridFtl::extra_stats() const {
  uint64_t in_use = 0;
  for (const Die& d : dies_) in_use += d.logs.size();
  return {{"switch_merges", double(merges_.switches), "count", "in-order log blocks that became data blocks as they were"},
          {"partial_merges", double(merges_.partials), "count",
           "in-order log prefixes completed from the logical block's other pages, then switched"},
          {"full_merges", double(merges_.fulls), "count", "logical blocks rewritten whole into a fresh block"},
          {"merge_pages_copied", double(merges_.copied), "pages", "valid pages copied by merges"},
          {"merge_pages_padded", double(merges_.padded), "pages",
           "pad pages programmed by merges over holes (never written or trimmed) below a copied page"},
          {"log_blocks_in_use", double(in_use), "count", "log blocks holding data now (all dies)"},
          {"trimmed_pages_skipped", double(merges_.trimmed_skipped), "pages", "trimmed pages merges did not copy"}};
}

void HybridFtl::reset_stats() {
  stats_ = FtlStats{};
  merges_ = MergeCounts{};
}

void HybridFtl::check_consistency() const {
  auto fail = [](const std::string& what) { throw std::logic_error("hybrid FTL inconsistent: " + what); };
  std::vector<uint32_t> block_slot(geo_.blocks(), kNone);
  for (uint32_t d = 0; d < dies_.size(); ++d) {
    const Die& die = dies_[d];
    if (die.logs.size() > pool_) fail("die " + std::to_string(d) + " has more log blocks than the pool");
    for (uint32_t s : die.logs) {
      const Log& g = logs_[s];
      if (s / pool_ != d || g.block == kNone || die_of_block(g.block) != d || role_[g.block] != Role::Log)
        fail("log slot " + std::to_string(s) + " of die " + std::to_string(d));
      block_slot[g.block] = s;
      const uint32_t next = g.block * ppb_ + g.used;
      if (g.used == 0 || !media_.is_programmed(phys(next - 1)) || (g.used < ppb_ && media_.is_programmed(phys(next))))
        fail("log block " + std::to_string(g.block) + " used " + std::to_string(g.used) + " vs the flash");
      bool in_order = g.owner != kNone;
      for (uint32_t i = 0; i < g.used; ++i) in_order = in_order && g.lpns[i] == g.owner * ppb_ + i;
      if (in_order != g.in_order) fail("log block " + std::to_string(g.block) + " in-order flag");
      if (g.sequential && (scheme_ != Scheme::Fast || die.seq != s || !g.in_order)) fail("sequential log");
      if (scheme_ == Scheme::Bast && log_of_[g.owner] != s) fail("log_of of logical block " + std::to_string(g.owner));
    }
  }
  for (uint32_t s = 0; s < logs_.size(); ++s)
    if (logs_[s].block != kNone && block_slot[logs_[s].block] != s) fail("log slot " + std::to_string(s) + " not listed");
  for (uint32_t lb = 0; lb < logical_blocks_; ++lb) {
    const uint32_t b = data_[lb];
    if (b != kNone && (role_[b] != Role::Data || die_of_block(b) != die_of_lb(lb)))
      fail("data block of logical block " + std::to_string(lb));
  }
  std::vector<uint32_t> count(geo_.blocks(), 0);
  for (uint64_t l = 0; l < engine_pages_; ++l) {
    const uint32_t p = l2p_[l];
    if (p == kNone) continue;
    const uint32_t b = p / ppb_, page = p % ppb_, lb = uint32_t(l / ppb_);
    if (p2l_[p] != l) fail("l2p[" + std::to_string(l) + "] -> " + std::to_string(p) + " but p2l disagrees");
    if (!media_.is_programmed(phys(p))) fail("LPN " + std::to_string(l) + " maps to an erased page");
    if (role_[b] == Role::Data) {
      if (data_[lb] != b || page != l % ppb_) fail("LPN " + std::to_string(l) + " off its data block offset");
    } else if (role_[b] == Role::Log) {
      const Log& g = logs_[block_slot[b]];
      if (g.lpns[page] != l || page >= g.used || (g.owner != kNone && g.owner != lb))
        fail("LPN " + std::to_string(l) + " in log block " + std::to_string(b));
      if (die_of_block(b) != die_of_lb(lb)) fail("LPN " + std::to_string(l) + " logged on another die");
    } else {
      fail("LPN " + std::to_string(l) + " in a free block");
    }
    ++count[b];
  }
  for (uint32_t b = 0; b < geo_.blocks(); ++b) {
    if (count[b] != valid_[b]) fail("block " + std::to_string(b) + " valid count " + std::to_string(valid_[b]) +
                                    ", mapped pages " + std::to_string(count[b]));
    if (role_[b] == Role::Free && media_.is_programmed(phys(b * ppb_)))
      fail("free block " + std::to_string(b) + " is not erased");
  }
  for (uint32_t d = 0; d < dies_.size(); ++d)
    for (uint32_t b : dies_[d].free_blocks)
      if (role_[b] != Role::Free || die_of_block(b) != d) fail("free list of die " + std::to_string(d));
  uint64_t free_total = 0, free_roles = 0;
  for (const Die& d : dies_) free_total += d.free_blocks.size();
  for (Role r : role_) free_roles += r == Role::Free;
  if (free_total != free_roles) fail("free lists hold " + std::to_string(free_total) + " blocks, " +
                                     std::to_string(free_roles) + " are free");
}

bool HybridFtl::checkpoint(Checkpoint& c) {
  c.section(scheme_ == Scheme::Bast ? "bast FTL" : "fast FTL");
  c.expect(user_pages_, "user pages");
  c.expect(pool_, "log blocks per die");
  c.table(l2p_, "mapping table entries");
  c.table(p2l_, "flash pages");
  std::vector<uint8_t> trimmed(trimmed_.begin(), trimmed_.end());  // (vector<bool> is packed)
  c.table(trimmed, "logical pages");
  if (c.loading()) trimmed_.assign(trimmed.begin(), trimmed.end());
  c.table(data_, "logical blocks");
  c.table(log_of_, "logical blocks");
  c.table(valid_, "blocks");
  c.table(role_, "blocks");
  c.expect<uint64_t>(logs_.size(), "log slots");
  for (Log& l : logs_) {
    c.value(l.block);
    c.value(l.owner);
    c.value(l.used);
    c.value(l.in_order);
    c.value(l.sequential);
    c.value(l.born);
    c.list<uint32_t>(l.lpns, ppb_, "a log block's page map");
  }
  c.expect<uint64_t>(dies_.size(), "dies");
  for (Die& d : dies_) {
    c.list<uint32_t>(d.free_blocks, geo_.blocks_per_die(), "a die's free blocks");
    c.list<uint32_t>(d.logs, pool_, "a die's log slots in use");
    c.value(d.seq);
    c.value(d.cur);
  }
  c.value(clock_);
  c.value(stats_);
  c.value(merges_);
  return true;
}

bool HybridFtl::steady_state(uint64_t seed, const std::function<uint64_t(uint64_t)>& version) {
  // Under uniform random overwrites a BAST drive settles as soon as every
  // log slot has cycled a few times: each write to a logical block without
  // a log opens one and fully merges the die's oldest, so the data blocks
  // are whole and each pool holds logs of a few pages of random logical
  // blocks, whatever came before. The state of a fill and a capacity of
  // random overwrites (`torture`) is therefore reached by a fill and 16
  // random writes per log slot; the same IOPS and WA follow (tested on a
  // small drive). Wear is not (erase counts stay low).
  // FAST cycles instead: its random logs fill in turn and the oldest is
  // merged whole, a burst of full merges (one per logical block it holds a
  // page of) then a log's worth of cheap appends. Its state is a point in
  // that cycle, settled once every random log has been filled and merged a
  // few times: a fill and 8 rounds of the die's random logs. After that the
  // dies would all be at the same point of their cycle and merge together;
  // after long random use each die is somewhere else in it (the writes each
  // die received differ by far more than a cycle), so each die then takes a
  // uniform random part of a cycle more. The same IOPS and WA over several
  // cycles as after `torture` follow (tested on a small drive).
  if (scheme_ == Scheme::Bast) {
    fill_then_overwrite(*this, seed, 16ull * pool_ * geo_.dies(), version);
    return true;
  }
  const uint64_t cycle = uint64_t(std::max<uint32_t>(1, pool_ - 1)) * ppb_;
  fill_then_overwrite(*this, seed, 8 * cycle * geo_.dies(), version);
  Random rng(seed ^ 0x6661737470686173ull);
  FtlWork w;
  w.record_ops = false;
  const uint32_t dies = geo_.dies();
  for (uint32_t d = 0; d < dies && d < logical_blocks_; ++d) {
    const uint32_t lbs = (logical_blocks_ - d + dies - 1) / dies;  // logical blocks d, d + dies, ...
    for (uint64_t n = rng.below(cycle); n > 0; --n) {
      uint32_t h;
      do h = host((d + dies * uint32_t(rng.below(lbs))) * ppb_ + uint32_t(rng.below(ppb_)));
      while (h >= user_pages_);  // (interleaved: the last row's padding)
      w.clear();
      write(Lpn(h), version(h), w);
    }
  }
  return true;
}

}  // namespace ssd::ftl
