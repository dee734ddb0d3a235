#include "model/ftl/block/block_ftl.h"

#include "model/ftl/steady_written.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

namespace {
FtlRegistration block_registration(
    "block", "block-level mapping (JMicron JMF602 class): SRAM write buffer, appends, whole-block read-modify-write",
    [](const FtlParams& p, FlashMedia& m) { return std::make_unique<BlockFtl>(p, m); },
    {{"ftl.block.buffer", "4", "count",
      "block FTL: controller SRAM write buffer, in pages (1..pages_per_block); it coalesces writes to one "
      "logical block before they reach flash. Default 4 (16 KiB of 4 KiB pages): a DRAM-less JMF602A-class "
      "controller has only tens of KiB of SRAM for buffers and tables; the JMF602B doubled it (try 8)"},
     {"ftl.block.buffer_blocks", "1", "count",
      "block FTL: logical blocks the write buffer may hold pages of at once (1..ftl.block.buffer); a write to "
      "a further block, or one that fills the buffer, flushes it: every held block in turn, each block's merge "
      "after the previous one's (so a buffer of N random pages stalls one write for N merges)"},
     {"ftl.block.stripe", "1", "count",
      "block FTL: dies a logical block is striped over (its page i on die i % stripe of its group, pages in "
      "order; with nand.multiplane and P planes, P-page units: page i on die i / P % stripe); a logical block "
      "is stripe x pages_per_block pages, its RMW and a sequential stream run on that many dies at once. 1 = a "
      "logical block on one die (L % dies); must divide the number of dies"}},
    &BlockFtl::table_bytes);
// An option value as the user wrote it (counts are whole numbers).
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
// Option `key`, a whole number from 1 to `max`; else refused with `message`
// and the value.
uint32_t count(const FtlParams& p, const char* key, uint32_t max, const std::string& message) {
  const double v = p.options.get(key);
  if (v < 1 || v > max || v != std::floor(v)) throw FtlConfigError(key, message + number(v));
  return uint32_t(v);
}
// ftl.block.stripe, checked.
uint32_t stripe_of(const FtlParams& p) {
  const double stripe = p.options.get("ftl.block.stripe");
  const uint32_t dies = p.geometry.dies();
  if (stripe < 1 || stripe > dies || stripe != std::floor(stripe) || dies % uint32_t(stripe))
    throw FtlConfigError("ftl.block.stripe", "a logical block must stripe over a divisor of the " +
                                                 std::to_string(dies) + " dies, not " + number(stripe));
  return uint32_t(stripe);
}
// Logical blocks of stripe x pages_per_block pages over the user capacity.
uint32_t logical_blocks(const FtlParams& p) {
  const uint64_t lpb = uint64_t(stripe_of(p)) * p.geometry.pages_per_block;
  return uint32_t((user_pages_for(p) + lpb - 1) / lpb);
}
}  // namespace

uint64_t BlockFtl::table_bytes(const FtlParams& p) { return uint64_t(logical_blocks(p)) * p.map_entry_bytes; }

BlockFtl::BlockFtl(const FtlParams& p, FlashMedia& media)
    : params_(p), geo_(p.geometry), media_(media), user_pages_(user_pages_for(p)) {
  stripe_ = stripe_of(p);
  groups_ = geo_.dies() / stripe_;
  // (die_pages > 1 only with multi-plane operations, whose blocks hold a
  // multiple of it: the planes' pages alternate.)
  unit_ = std::max<uint32_t>(1, p.die_pages);
  lpb_ = stripe_ * geo_.pages_per_block;
  buffer_pages_ = count(p, "ftl.block.buffer", lpb_,
                        "the write buffer must hold 1 to the pages of a logical block (" + std::to_string(lpb_) +
                            ": stripe x pages_per_block) pages, not ");
  buffer_blocks_ = count(p, "ftl.block.buffer_blocks", buffer_pages_,
                         "the write buffer holds pages of 1 to ftl.block.buffer (" + std::to_string(buffer_pages_) +
                             ") logical blocks, not ");
  if (geo_.pages() >= kNone) throw std::invalid_argument("more than 2^32 flash pages");
  logical_blocks_ = logical_blocks(p);
  // Group 0 holds the most logical blocks (L % groups); each needs its own
  // block set, plus one for the logical block in rewrite and one merge target.
  const uint64_t on_group0 = (uint64_t(logical_blocks_) + groups_ - 1) / groups_;
  if (uint64_t(geo_.blocks_per_die()) < on_group0 + 2)
    throw std::invalid_argument("spare area too small: the block FTL maps " + std::to_string(on_group0) +
                                " logical blocks onto dies of " + std::to_string(geo_.blocks_per_die()) +
                                " blocks and needs 2 spare blocks per die for merges (raise ftl.op)");
  lb_.resize(logical_blocks_);
  state_.assign(uint64_t(logical_blocks_) * lpb_, PageState::Empty);
  dirty_.assign(uint64_t(groups_) * geo_.blocks_per_die(), 0);
  free_.resize(groups_);
  for (uint32_t g = 0; g < groups_; ++g)
    for (uint32_t k = 0; k < geo_.blocks_per_die(); ++k) free_[g].push_back(k);
  start_ops();
  buffer_.reserve(buffer_pages_);
  held_.reserve(buffer_blocks_);
  flush_pages_.reserve(buffer_pages_);
}

void BlockFtl::prefetch(Lpn lpn, int stage) const {
  const uint32_t lb = lpn.v / lpb_;
  if (lb >= logical_blocks_) return;
  if (stage == 0) {
    __builtin_prefetch(&lb_[lb]);
    const uint64_t first = uint64_t(lb) * lpb_;
    // The merge reads the page's state; with trimmed pages about, every page's.
    __builtin_prefetch(&state_[lpn.v]);
    for (uint32_t i = 0; trimmed_ && i < lpb_; i += 64) __builtin_prefetch(&state_[first + i]);
    return;
  }
  if (lb_[lb].cur == kNone) return;
  for (uint32_t j = 0; j < stripe_; ++j) media_.prefetch(geo_.block(DieId(group_of(lb) * stripe_ + j), lb_[lb].cur), true);
}

void BlockFtl::start_ops() {
  last_op_.assign(geo_.dies(), -1);
  unit_base_.assign(geo_.dies(), -1);
  unit_at_.assign(geo_.dies(), UINT64_MAX);
}

int32_t BlockFtl::unit_after(uint32_t lb, uint32_t offset) {
  const uint32_t die = die_of(lb, offset);
  const uint64_t unit = uint64_t(lb) * lpb_ + offset - offset % unit_;
  if (unit_at_[die] != unit) unit_at_[die] = unit, unit_base_[die] = last_op_[die];
  return unit_base_[die];
}

void BlockFtl::begin_command(const HostRun& run) {
  // A write that continues the previous one, or that is longer than the
  // buffer (so it flushes the buffer with more of its pages still to come,
  // in order), is a sequential stream: its flushes may open a rewrite (see
  // the header) instead of paying a whole-block RMW each.
  if (run.op == HostRun::Op::Write) stream_ = run.continues || run.pages > buffer_pages_;
}

int BlockFtl::find_buffered(uint32_t lb, uint32_t offset) const {
  for (size_t i = 0; i < buffer_.size(); ++i)
    if (buffer_[i].offset == offset && buffer_[i].lb == lb) return int(i);
  return -1;
}

void BlockFtl::add(Emitter& e, FlashOp op) {
  if (e.after_earlier && op.after < 0) {
    op.barrier = true;
    op.sibling = e.head_added;
    e.head_added = true;
  }
  e.work.add(op);
}

Ppn BlockFtl::lookup(Lpn lpn) const {
  const uint32_t lb = uint32_t(lpn.v / lpb_), off = uint32_t(lpn.v % lpb_);
  const Logical& l = lb_[lb];
  if (state_[lpn.v] != PageState::Valid) return Ppn();
  return page(lb, off < l.wp ? l.cur : l.old, off);
}

void BlockFtl::read(Lpn lpn, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup;
  work.map_reads += 1;
  const uint32_t lb = lpn.v / lpb_;
  if (holds(lb)) {
    const int i = find_buffered(lb, lpn.v % lpb_);
    if (i >= 0) {  // the newest copy is in controller SRAM
      work.buffered = true;
      work.buffer_content = {lpn.v, buffer_[size_t(i)].version};
      ++x_.buffer_hits;
      return;
    }
  }
  const Ppn p = lookup(lpn);
  if (!p.valid()) {
    ++stats_.unmapped_reads;
    return;
  }
  work.add({FlashOp::Kind::Read, p});
}

void BlockFtl::write(Lpn lpn, uint64_t version, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup;
  work.map_reads += 1;
  ++stats_.host_pages_written;
  work.into_buffer = true;
  buffer_page(buffer_, held_, {lpn.v % lpb_, lpn.v / lpb_, version}, buffer_blocks_, buffer_pages_, unit_,
              x_.buffer_overwrites, [&] { flush(work); });
}

void BlockFtl::trim(Lpn lpn, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup + params_.cycles.map_update;
  work.map_reads += 1;
  const uint32_t lb = lpn.v / lpb_;
  if (holds(lb)) {
    const int i = find_buffered(lb, lpn.v % lpb_);
    if (i >= 0) buffer_.erase(buffer_.begin() + i);
    if (std::none_of(buffer_.begin(), buffer_.end(), [&](const Buffered& b) { return b.lb == lb; }))
      held_.erase(std::find(held_.begin(), held_.end(), lb));
  }
  if (state_[lpn.v] != PageState::Valid) return;
  work.map_writes += 1;
  state_[lpn.v] = PageState::Trimmed;
  ++trimmed_;
  ++stats_.trimmed_pages;
  Logical& l = lb_[lb];
  if (--l.valid > 0) return;
  // No valid page left: both copies go back to the group's free pool, to be
  // erased when reused (a TRIM's own work schedules no flash operation).
  const uint32_t g = group_of(lb);
  for (uint32_t set : {l.cur, l.old})
    if (set != kNone) {
      dirty_[uint64_t(g) * geo_.blocks_per_die() + set] = 1;
      ++dirty_count_;
      free_[g].push_back(set);
      x_.blocks_freed_by_trim += stripe_;
    }
  l = Logical{};
  if (rewriting_ == lb) rewriting_ = kNone;
  const auto lb_first = state_.begin() + uint64_t(lb) * lpb_;
  trimmed_ -= uint64_t(std::count(lb_first, lb_first + lpb_, PageState::Trimmed));
  std::fill(lb_first, lb_first + lpb_, PageState::Empty);
  work.map_writes += 1;  // the block map entry
}

bool BlockFtl::background(FtlWork& work) {
  // Idle time: first make the buffered pages durable, then erase the blocks
  // TRIM gave back, one set per slice, so later merges find them ready.
  if (!buffer_.empty()) {
    flush(work);
    return true;
  }
  if (dirty_count_ == 0) return false;
  for (uint32_t g = 0; g < groups_; ++g)
    for (uint32_t set : free_[g])
      if (dirty_[uint64_t(g) * geo_.blocks_per_die() + set]) {
        start_ops();
        Emitter e{work, stats_, x_};
        erase(g, set, e);
        dirty_[uint64_t(g) * geo_.blocks_per_die() + set] = 0;
        --dirty_count_;
        return true;
      }
  throw std::logic_error("block FTL: dirty block count " + std::to_string(dirty_count_) + " but none is free");
}

void BlockFtl::flush(FtlWork& work) {
  ++x_.buffer_flushes;
  work.drains_buffer = true;
  // The held blocks in the order they came, each block's pages in offset order.
  std::vector<Buffered>& pages = flush_pages_;
  Emitter e{work, stats_, x_};
  for (size_t k = 0; k < held_.size(); ++k) {
    const uint32_t lb = held_[k];
    pages.clear();
    take_block(buffer_, lb, pages);
    start_ops();
    e.after_earlier = k > 0;
    e.head_added = false;
    merge_block(lb, pages, e);
  }
  buffer_.clear();
  held_.clear();
}

void BlockFtl::merge_block(uint32_t lb, const std::vector<Buffered>& pages, Emitter& e) {
  const bool run = pages.back().offset - pages.front().offset + 1 == pages.size();  // one in-order run
  const Logical& l = lb_[lb];
  if (run && pages.front().offset == l.wp)
    append(lb, pages, e);
  else if (run && stream_ && l.cur != kNone && l.old == kNone)
    rewrite(lb, pages, e);
  else
    rmw(lb, pages, e);
}

void BlockFtl::append(uint32_t lb, const std::vector<Buffered>& run, Emitter& e) {
  Logical& l = lb_[lb];
  if (l.cur == kNone) {  // the logical block's first copy
    l.cur = allocate(group_of(lb), e);
    e.work.cpu_cycles += params_.cycles.map_update;
    e.work.map_writes += 1;
  }
  for (const Buffered& b : run) fill(lb, l.cur, b.offset, &b, e);
  l.wp = run.back().offset + 1;
  e.x.appends += run.size();
  maybe_finish_rewrite(lb, e);
}

void BlockFtl::rewrite(uint32_t lb, const std::vector<Buffered>& run, Emitter& e) {
  if (rewriting_ != kNone) close_rewrite(rewriting_, e);
  Logical& l = lb_[lb];
  const uint32_t target = allocate(group_of(lb), e);
  // The valid pages before the run come along; the old copy keeps the rest.
  for (uint32_t off = 0; off < run.front().offset; ++off) fill(lb, target, off, nullptr, e);
  for (const Buffered& b : run) fill(lb, target, b.offset, &b, e);
  l.old = l.cur;
  l.cur = target;
  l.wp = run.back().offset + 1;
  rewriting_ = lb;
  ++e.x.rewrites;
  e.x.appends += run.size();
  e.work.cpu_cycles += params_.cycles.map_update + params_.cycles.gc_victim;
  e.work.map_writes += 1;
  maybe_finish_rewrite(lb, e);
}

void BlockFtl::rmw(uint32_t lb, const std::vector<Buffered>& pages, Emitter& e) {
  Logical& l = lb_[lb];
  // A copy with every page below its write pointer valid (a filled block)
  // needs no scan for its highest one.
  const bool whole = l.old == kNone && l.valid == l.wp;
  const uint32_t top = whole ? (l.wp ? l.wp - 1 : kNone) : highest_valid(lb, 0);
  const uint32_t last = top == kNone ? pages.back().offset : std::max(top, pages.back().offset);
  const uint32_t target = allocate(group_of(lb), e);
  const uint64_t first = uint64_t(lb) * lpb_;
  if (!e.work.record_ops && !media_.tracks_content() &&
      (trimmed_ == 0 || !std::memchr(&state_[first], int(PageState::Trimmed), last + 1))) {
    merge_counted(lb, pages, target, last + 1, e);
  } else {
    size_t next = 0;  // the buffered pages, in offset order
    for (uint32_t off = 0; off <= last; ++off) {
      const Buffered* host = next < pages.size() && pages[next].offset == off ? &pages[next++] : nullptr;
      fill(lb, target, off, host, e);
    }
  }
  for (uint32_t off = last + 1; trimmed_ && off < lpb_; ++off)  // stale pages above the new copy's end
    if (state_[first + off] == PageState::Trimmed) state_[first + off] = PageState::Empty, --trimmed_, ++e.x.trimmed_pages_skipped;
  for (uint32_t set : {l.cur, l.old})
    if (set != kNone) {
      erase(group_of(lb), set, e);
      free_[group_of(lb)].push_back(set);
      ++e.stats.gc_runs;
    }
  if (rewriting_ == lb) rewriting_ = kNone;
  l.cur = target;
  l.old = kNone;
  l.wp = last + 1;
  ++e.x.rmw_merges;
  e.work.cpu_cycles += params_.cycles.map_update + params_.cycles.gc_victim;
  e.work.map_writes += 1;
}

void BlockFtl::close_rewrite(uint32_t lb, Emitter& e) {
  Logical& l = lb_[lb];
  const uint32_t top = highest_valid(lb, l.wp);
  if (top != kNone)
    for (; l.wp <= top; ++l.wp) fill(lb, l.cur, l.wp, nullptr, e);  // reads from the old copy (off >= wp)
  ++e.x.rewrite_closes;
  e.work.cpu_cycles += params_.cycles.gc_victim;
  maybe_finish_rewrite(lb, e);
}

void BlockFtl::maybe_finish_rewrite(uint32_t lb, Emitter& e) {
  Logical& l = lb_[lb];
  if (l.old == kNone || highest_valid(lb, l.wp) != kNone) return;
  const uint64_t first = uint64_t(lb) * lpb_;
  for (uint32_t off = l.wp; trimmed_ && off < lpb_; ++off)
    if (state_[first + off] == PageState::Trimmed) state_[first + off] = PageState::Empty, --trimmed_, ++e.x.trimmed_pages_skipped;
  erase(group_of(lb), l.old, e);
  free_[group_of(lb)].push_back(l.old);
  ++e.stats.gc_runs;
  l.old = kNone;
  if (rewriting_ == lb) rewriting_ = kNone;
}

void BlockFtl::merge_counted(uint32_t lb, const std::vector<Buffered>& pages, uint32_t target, uint32_t written,
                             Emitter& e) {
  Logical& l = lb_[lb];
  const uint64_t first = uint64_t(lb) * lpb_;
  uint32_t fresh = 0;  // host pages not valid before
  for (const Buffered& b : pages) {
    PageState& s = state_[first + b.offset];
    if (s != PageState::Valid) ++fresh, s = PageState::Valid;
  }
  // Every valid page lies below `written`; those the host did not rewrite are copied.
  const uint32_t copies = l.valid - (uint32_t(pages.size()) - fresh);
  l.valid += fresh;
  for (uint32_t j = 0; j < stripe_; ++j)
    media_.program_untracked(geo_.block(DieId(group_of(lb) * stripe_ + j), target), below(written, j));
  e.stats.flash_pages_written += written;
  e.stats.gc_pages_moved += copies;
  e.x.rmw_pages_copied += copies;
  e.x.filler_pages += written - copies - uint32_t(pages.size());
  e.work.cpu_cycles += uint64_t(copies) * params_.cycles.gc_page;
}
void BlockFtl::fill(uint32_t lb, uint32_t target, uint32_t offset, const Buffered* host, Emitter& e) {
  const uint64_t lpn = uint64_t(lb) * lpb_ + offset;
  PageState& s = state_[lpn];
  Logical& l = lb_[lb];
  if (host) {
    if (s != PageState::Valid) ++l.valid;
    if (s == PageState::Trimmed) --trimmed_;
    s = PageState::Valid;
    program(lb, target, offset, {uint32_t(lpn), host->version}, false, unit_after(lb, offset), e);
    return;
  }
  if (s == PageState::Valid) {  // copy: read the page where it lives now, program it
    const Ppn src = page(lb, offset < l.wp ? l.cur : l.old, offset);
    const uint32_t die = die_of(lb, offset);
    const int32_t read = int32_t(e.work.ops.size());
    add(e, {FlashOp::Kind::Read, src, true, unit_after(lb, offset)});
    last_op_[die] = read;
    program(lb, target, offset, media_.read(src), true, read, e);
    e.work.cpu_cycles += params_.cycles.gc_page;
    ++e.x.rmw_pages_copied;
    ++e.stats.gc_pages_moved;
    return;
  }
  if (s == PageState::Trimmed) ++e.x.trimmed_pages_skipped, --trimmed_;  // stale: not read, not copied
  s = PageState::Empty;
  program(lb, target, offset, {}, true, unit_after(lb, offset), e);  // filler: NAND programs a block's pages in order
  ++e.x.filler_pages;
}

void BlockFtl::program(uint32_t lb, uint32_t set, uint32_t offset, PageContent c, bool gc, int32_t after,
                       Emitter& e) {
  const Ppn p = page(lb, set, offset);
  media_.program(geo_.block_of(p), geo_.page_in_block(p), c);
  // Each die's ops of a flush run in the order listed (its block's pages in
  // order, a copy's read just before its program): a host page waits for the
  // merge traffic before it on its die.
  const uint32_t die = die_of(lb, offset);
  const int32_t index = int32_t(e.work.ops.size());
  FlashOp op{FlashOp::Kind::Program, p, gc, after};
  if (!gc) op.lpn = lb * lpb_ + offset;  // (a buffered page of an earlier command, or this one's)
  add(e, op);
  last_op_[die] = index;
  ++e.stats.flash_pages_written;
}

void BlockFtl::erase(uint32_t group, uint32_t set, Emitter& e) {
  // One block per die of the group, each after the ops before it on its die
  // (among them every read of that block).
  for (uint32_t j = 0; j < stripe_; ++j) {
    const uint32_t die = group * stripe_ + j;
    const BlockId b = geo_.block(DieId(die), set);
    media_.erase(b);
    const int32_t index = int32_t(e.work.ops.size());
    add(e, {FlashOp::Kind::Erase, geo_.first_page(b), true, last_op_[die]});
    last_op_[die] = index;
    unit_at_[die] = UINT64_MAX;  // what follows the erase waits for it
  }
}

uint32_t BlockFtl::allocate(uint32_t group, Emitter& e) {
  std::deque<uint32_t>& pool = free_[group];
  if (pool.empty()) throw std::logic_error("block FTL: die group " + std::to_string(group) + " has no free block");
  const uint32_t set = pool.front();
  pool.pop_front();
  if (!pool.empty()) {  // the group's next allocation: its flags and counters, fetched ahead
    __builtin_prefetch(&dirty_[uint64_t(group) * geo_.blocks_per_die() + pool.front()]);
    for (uint32_t j = 0; j < stripe_; ++j) media_.prefetch(geo_.block(DieId(group * stripe_ + j), pool.front()), false);
  }
  uint8_t& dirty = dirty_[uint64_t(group) * geo_.blocks_per_die() + set];
  if (dirty) {  // freed by TRIM and not erased in idle time: erase it now, before its programs
    dirty = 0;
    --dirty_count_;
    erase(group, set, e);
  }
  return set;
}

uint32_t BlockFtl::highest_valid(uint32_t lb, uint32_t from) const {
  const uint64_t first = uint64_t(lb) * lpb_;
  for (uint32_t off = lpb_; off-- > from;)
    if (state_[first + off] == PageState::Valid) return off;
  return kNone;
}

std::vector<FtlStat> BlockFtl::extra_stats() const {
  return {
      {"rmw_merges", double(x_.rmw_merges), "count", "whole-block read-modify-writes"},
      {"rmw_pages_copied", double(x_.rmw_pages_copied), "pages",
       "valid pages read and programmed by merges (RMWs, rewrite heads and closes)"},
      {"appends", double(x_.appends), "pages", "host pages programmed in order into a logical block's open copy"},
      {"buffer_hits", double(x_.buffer_hits), "count", "reads served from the SRAM write buffer"},
      {"buffer_overwrites", double(x_.buffer_overwrites), "count",
       "writes that replaced a page still in the buffer (never reached flash)"},
      {"buffer_flushes", double(x_.buffer_flushes), "count", "write buffer flushes to flash"},
      {"trimmed_pages_skipped", double(x_.trimmed_pages_skipped), "pages",
       "trimmed pages a merge did not copy"},
      {"filler_pages", double(x_.filler_pages), "pages",
       "holes programmed with filler (NAND programs a block's pages in order)"},
      {"rewrites", double(x_.rewrites), "count", "sequential streams that opened a new copy of a logical block"},
      {"rewrite_closes", double(x_.rewrite_closes), "count",
       "rewrites ended early: the old copy's remaining valid pages were copied"},
      {"blocks_freed_by_trim", double(x_.blocks_freed_by_trim), "count",
       "physical blocks given back when their logical block was wholly trimmed"},
  };
}

void BlockFtl::reset_stats() {
  stats_ = FtlStats{};
  x_ = {};
}

void BlockFtl::check_consistency() const {
  auto fail = [](const std::string& what) { throw std::logic_error("block FTL inconsistent: " + what); };
  const uint32_t bpd = geo_.blocks_per_die();
  std::vector<uint8_t> owned(uint64_t(groups_) * bpd, 0);  // block sets
  auto own = [&](uint32_t g, uint32_t set, const std::string& who) {
    if (set >= bpd || owned[uint64_t(g) * bpd + set]++)
      fail("block set " + std::to_string(set) + " of die group " + std::to_string(g) + " owned twice (" + who + ")");
  };
  for (uint32_t lb = 0; lb < logical_blocks_; ++lb) {
    const Logical& l = lb_[lb];
    const std::string who = "logical block " + std::to_string(lb);
    if (l.cur == kNone && (l.wp || l.old != kNone || l.valid)) fail(who + " has no copy but state");
    if (l.cur != kNone) {
      own(group_of(lb), l.cur, who);
      if (l.wp == 0 || l.wp > lpb_) fail(who + " write pointer " + std::to_string(l.wp));
      for (uint32_t j = 0; j < stripe_; ++j) {  // each member block holds its pages below wp, no more
        const uint32_t n = below(l.wp, j);
        const Ppn first = page(lb, l.cur, j * unit_);
        if ((n > 0 && !media_.is_programmed(Ppn(first.v + n - 1))) ||
            (n < geo_.pages_per_block && media_.is_programmed(Ppn(first.v + n))))
          fail(who + " write pointer " + std::to_string(l.wp) + " disagrees with the flash on its die " +
               std::to_string(die_of(lb, j * unit_)));
      }
    }
    if (l.old != kNone) own(group_of(lb), l.old, who + " (old copy)");
    if ((l.old != kNone) != (rewriting_ == lb)) fail(who + " old copy vs the block in rewrite");
    uint32_t valid = 0;
    for (uint32_t off = 0; off < lpb_; ++off) {
      const uint64_t lpn = uint64_t(lb) * lpb_ + off;
      if (state_[lpn] == PageState::Empty) continue;
      const uint32_t set = off < l.wp ? l.cur : l.old;
      if (set == kNone || !media_.is_programmed(page(lb, set, off)))
        fail("LPN " + std::to_string(lpn) + " has data on flash that is not there");
      if (state_[lpn] != PageState::Valid) continue;
      if (lpn >= user_pages_) fail("LPN " + std::to_string(lpn) + " beyond the user capacity is valid");
      const PageContent c = media_.read(page(lb, set, off));
      if (c.version && c.lpn != lpn) fail("LPN " + std::to_string(lpn) + " maps to a page of LPN " + std::to_string(c.lpn));
      ++valid;
    }
    if (valid != l.valid) fail(who + " valid count " + std::to_string(l.valid) + ", found " + std::to_string(valid));
  }
  uint32_t dirty = 0;
  for (uint32_t g = 0; g < groups_; ++g)
    for (uint32_t set : free_[g]) {
      own(g, set, "free");
      if (dirty_[uint64_t(g) * bpd + set]) {
        ++dirty;
        continue;
      }
      for (uint32_t j = 0; j < stripe_; ++j)
        if (media_.is_programmed(geo_.first_page(geo_.block(DieId(g * stripe_ + j), set))))
          fail("free block set " + std::to_string(set) + " of die group " + std::to_string(g) + " not erased");
    }
  if (dirty != dirty_count_) fail("dirty block count");
  if (uint64_t(std::count(state_.begin(), state_.end(), PageState::Trimmed)) != trimmed_) fail("trimmed page count");
  for (uint64_t i = 0; i < owned.size(); ++i)
    if (!owned[i]) fail("block set " + std::to_string(i % bpd) + " of die group " + std::to_string(i / bpd) + " lost");
  if (buffer_.size() >= buffer_pages_ || held_.size() > buffer_blocks_ || buffer_.empty() != held_.empty())
    fail("write buffer state");
  for (size_t i = 0; i < held_.size(); ++i)
    if (std::find(held_.begin(), held_.begin() + std::ptrdiff_t(i), held_[i]) != held_.begin() + std::ptrdiff_t(i) ||
        std::none_of(buffer_.begin(), buffer_.end(), [&](const Buffered& b) { return b.lb == held_[i]; }))
      fail("write buffer block " + std::to_string(i));
  for (size_t i = 0; i < buffer_.size(); ++i)
    if (find_buffered(buffer_[i].lb, buffer_[i].offset) != int(i) || !holds(buffer_[i].lb) ||
        uint64_t(buffer_[i].lb) * lpb_ + buffer_[i].offset >= user_pages_)
      fail("write buffer entry " + std::to_string(i));
}

bool BlockFtl::checkpoint(Checkpoint& c) {
  c.section("block FTL");
  c.expect(user_pages_, "user pages");
  c.expect(lpb_, "pages per logical block");
  c.expect(stripe_, "dies per logical block");
  c.table(lb_, "logical blocks");
  c.table(state_, "logical pages");
  c.table(dirty_, "block sets");
  c.expect<uint64_t>(free_.size(), "die groups");
  for (auto& f : free_) c.list<uint32_t>(f, geo_.blocks_per_die(), "a die group's free block sets");
  c.value(dirty_count_);
  c.list<Buffered>(buffer_, buffer_pages_, "buffered pages");
  c.list<uint32_t>(held_, buffer_blocks_, "buffered logical blocks");
  c.value(rewriting_);
  c.value(stream_);
  c.value(stats_);
  c.value(x_);
  if (c.loading()) {
    trimmed_ = uint64_t(std::count(state_.begin(), state_.end(), PageState::Trimmed));
    for (uint32_t lb : held_)
      if (lb >= logical_blocks_) c.fail("buffered logical block beyond the drive");
    for (const Buffered& b : buffer_)
      if (!holds(b.lb) || b.offset >= lpb_) c.fail("buffered page outside the buffered logical blocks");
  }
  if (c.loading() && rewriting_ != kNone && rewriting_ >= logical_blocks_) c.fail("logical block in rewrite beyond the drive");
  return true;
}

bool BlockFtl::steady_state(uint64_t seed, const std::function<uint64_t(uint64_t)>& version) {
  // Under uniform random overwrites a block-mapped drive settles at once:
  // nearly every write lands in another logical block than the buffer's,
  // flushing it with a read-modify-write of its block, so every logical
  // block stays whole in one physical block. The state of a fill and a
  // capacity of random overwrites (`torture`) is therefore reached by a
  // fill and 16 buffers' worth of random writes per die; the same IOPS and
  // WA follow (tested on a small drive). Wear is not (erase counts stay low).
  fill_then_overwrite(*this, seed, 16ull * buffer_pages_ * geo_.dies(), version);
  return true;
}

}  // namespace ssd::ftl
