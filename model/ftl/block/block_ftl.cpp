#include "model/ftl/block/block_ftl.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

namespace {
FtlRegistration registration(
    "block", "block-level mapping (JMicron JMF602 class): SRAM write buffer, appends, whole-block read-modify-write",
    [](const FtlParams& p, FlashMedia& m) { return std::make_unique<BlockFtl>(p, m); },
    {{"ftl.block.buffer", "4", "count",
      "block FTL: controller SRAM write buffer, in pages (1..pages_per_block); it coalesces writes to one "
      "logical block before they reach flash. Default 4 (16 KiB of 4 KiB pages): a DRAM-less JMF602A-class "
      "controller has only tens of KiB of SRAM for buffers and tables; the JMF602B doubled it (try 8)"}});
}  // namespace

BlockFtl::BlockFtl(const FtlParams& p, FlashMedia& media)
    : params_(p), geo_(p.geometry), media_(media), user_pages_(user_pages_for(geo_, p.over_provisioning)) {
  const uint32_t ppb = geo_.pages_per_block;
  const double buffer = p.options.get("ftl.block.buffer");
  if (buffer < 1 || buffer > ppb || buffer != std::floor(buffer))
    throw FtlConfigError("ftl.block.buffer", "the write buffer must hold 1 to pages_per_block (" +
                                                 std::to_string(ppb) + ") pages, not " + std::to_string(buffer));
  buffer_pages_ = uint32_t(buffer);
  if (geo_.pages() >= kNone) throw std::invalid_argument("more than 2^32 flash pages");
  logical_blocks_ = uint32_t((user_pages_ + ppb - 1) / ppb);
  // Die 0 holds the most logical blocks (L % dies); each needs its own
  // block, plus one for the logical block in rewrite and one merge target.
  const uint64_t on_die0 = (uint64_t(logical_blocks_) + geo_.dies() - 1) / geo_.dies();
  if (uint64_t(geo_.blocks_per_die()) < on_die0 + 2)
    throw std::invalid_argument("spare area too small: the block FTL maps " + std::to_string(on_die0) +
                                " logical blocks onto die 0 of " + std::to_string(geo_.blocks_per_die()) +
                                " blocks and needs 2 spare blocks per die for merges (raise ftl.op)");
  lb_.resize(logical_blocks_);
  state_.assign(uint64_t(logical_blocks_) * ppb, PageState::Empty);
  dirty_.assign(geo_.blocks(), 0);
  free_.resize(geo_.dies());
  for (uint32_t d = 0; d < geo_.dies(); ++d)
    for (uint32_t b = 0; b < geo_.blocks_per_die(); ++b) free_[d].push_back(geo_.block(DieId(d), b).v);
  buffer_.reserve(buffer_pages_);
}

void BlockFtl::begin_command(const HostRun& run) {
  // A write that continues the previous one, or that is longer than the
  // buffer (so it flushes the buffer with more of its pages still to come,
  // in order), is a sequential stream: its flushes may open a rewrite (see
  // the header) instead of paying a whole-block RMW each.
  if (run.op == HostRun::Op::Write) stream_ = run.continues || run.pages > buffer_pages_;
}

int BlockFtl::find_buffered(uint32_t offset) const {
  for (size_t i = 0; i < buffer_.size(); ++i)
    if (buffer_[i].offset == offset) return int(i);
  return -1;
}

Ppn BlockFtl::lookup(Lpn lpn) const {
  const uint32_t ppb = geo_.pages_per_block, off = lpn.v % ppb;
  const Logical& l = lb_[lpn.v / ppb];
  if (state_[lpn.v] != PageState::Valid) return Ppn();
  return page(off < l.wp ? l.cur : l.old, off);
}

void BlockFtl::read(Lpn lpn, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup;
  work.map_reads += 1;
  const uint32_t lb = lpn.v / geo_.pages_per_block;
  if (lb == buffer_lb_) {
    const int i = find_buffered(lpn.v % geo_.pages_per_block);
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
  const uint32_t lb = lpn.v / geo_.pages_per_block, off = lpn.v % geo_.pages_per_block;
  if (!buffer_.empty() && buffer_lb_ != lb) flush(work);
  buffer_lb_ = lb;
  const int i = find_buffered(off);
  if (i >= 0) {
    buffer_[size_t(i)].version = version;  // coalesced in SRAM: the older copy never reaches flash
    ++x_.buffer_overwrites;
  } else {
    buffer_.push_back({off, version});
  }
  if (buffer_.size() == buffer_pages_) flush(work);
}

void BlockFtl::trim(Lpn lpn, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup + params_.cycles.map_update;
  work.map_reads += 1;
  const uint32_t ppb = geo_.pages_per_block, lb = lpn.v / ppb;
  if (lb == buffer_lb_) {
    const int i = find_buffered(lpn.v % ppb);
    if (i >= 0) buffer_.erase(buffer_.begin() + i);
    if (buffer_.empty()) buffer_lb_ = kNone;
  }
  if (state_[lpn.v] != PageState::Valid) return;
  work.map_writes += 1;
  state_[lpn.v] = PageState::Trimmed;
  ++stats_.trimmed_pages;
  Logical& l = lb_[lb];
  if (--l.valid > 0) return;
  // No valid page left: both copies go back to the die's free pool, to be
  // erased when reused (a TRIM's own work schedules no flash operation).
  for (uint32_t b : {l.cur, l.old})
    if (b != kNone) {
      dirty_[b] = 1;
      ++dirty_count_;
      free_[die_of(lb)].push_back(b);
      ++x_.blocks_freed_by_trim;
    }
  l = Logical{};
  if (rewriting_ == lb) rewriting_ = kNone;
  std::fill(state_.begin() + uint64_t(lb) * ppb, state_.begin() + uint64_t(lb + 1) * ppb, PageState::Empty);
  work.map_writes += 1;  // the block map entry
}

bool BlockFtl::background(FtlWork& work) {
  // Idle time: first make the buffered pages durable, then erase the blocks
  // TRIM gave back, one per slice, so later merges find them ready.
  if (!buffer_.empty()) {
    flush(work);
    return true;
  }
  if (dirty_count_ == 0) return false;
  for (uint32_t d = 0; d < geo_.dies(); ++d)
    for (uint32_t b : free_[d])
      if (dirty_[b]) {
        Emitter e{work};
        erase(b, e);
        dirty_[b] = 0;
        --dirty_count_;
        return true;
      }
  throw std::logic_error("block FTL: dirty block count " + std::to_string(dirty_count_) + " but none is free");
}

void BlockFtl::flush(FtlWork& work) {
  ++x_.buffer_flushes;
  const uint32_t lb = buffer_lb_;
  std::sort(buffer_.begin(), buffer_.end(), [](const Buffered& a, const Buffered& b) { return a.offset < b.offset; });
  const bool run = buffer_.back().offset - buffer_.front().offset + 1 == buffer_.size();  // one in-order run
  const Logical& l = lb_[lb];
  Emitter e{work};
  if (run && buffer_.front().offset == l.wp)
    append(lb, buffer_, e);
  else if (run && stream_ && l.cur != kNone && l.old == kNone)
    rewrite(lb, buffer_, e);
  else
    rmw(lb, buffer_, e);
  buffer_.clear();
  buffer_lb_ = kNone;
}

void BlockFtl::append(uint32_t lb, const std::vector<Buffered>& run, Emitter& e) {
  Logical& l = lb_[lb];
  if (l.cur == kNone) {  // the logical block's first copy
    l.cur = allocate(die_of(lb), e);
    e.work.cpu_cycles += params_.cycles.map_update;
    e.work.map_writes += 1;
  }
  for (const Buffered& b : run) fill(lb, l.cur, b.offset, &b, e);
  l.wp = run.back().offset + 1;
  x_.appends += run.size();
  maybe_finish_rewrite(lb, e);
}

void BlockFtl::rewrite(uint32_t lb, const std::vector<Buffered>& run, Emitter& e) {
  if (rewriting_ != kNone) close_rewrite(rewriting_, e);
  Logical& l = lb_[lb];
  const uint32_t target = allocate(die_of(lb), e);
  // The valid pages before the run come along; the old copy keeps the rest.
  for (uint32_t off = 0; off < run.front().offset; ++off) fill(lb, target, off, nullptr, e);
  for (const Buffered& b : run) fill(lb, target, b.offset, &b, e);
  l.old = l.cur;
  l.cur = target;
  l.wp = run.back().offset + 1;
  rewriting_ = lb;
  ++x_.rewrites;
  x_.appends += run.size();
  e.work.cpu_cycles += params_.cycles.map_update + params_.cycles.gc_victim;
  e.work.map_writes += 1;
  maybe_finish_rewrite(lb, e);
}

void BlockFtl::rmw(uint32_t lb, const std::vector<Buffered>& pages, Emitter& e) {
  Logical& l = lb_[lb];
  const uint32_t ppb = geo_.pages_per_block, top = highest_valid(lb, 0);
  const uint32_t last = top == kNone ? pages.back().offset : std::max(top, pages.back().offset);
  const uint32_t target = allocate(die_of(lb), e);
  size_t next = 0;  // the buffered pages, in offset order
  for (uint32_t off = 0; off <= last; ++off) {
    const Buffered* host = next < pages.size() && pages[next].offset == off ? &pages[next++] : nullptr;
    fill(lb, target, off, host, e);
  }
  const uint64_t first = uint64_t(lb) * ppb;
  for (uint32_t off = last + 1; off < ppb; ++off)  // stale pages above the new copy's end
    if (state_[first + off] == PageState::Trimmed) state_[first + off] = PageState::Empty, ++x_.trimmed_pages_skipped;
  for (uint32_t b : {l.cur, l.old})
    if (b != kNone) {
      erase(b, e);
      free_[die_of(lb)].push_back(b);
      ++stats_.gc_runs;
    }
  if (rewriting_ == lb) rewriting_ = kNone;
  l.cur = target;
  l.old = kNone;
  l.wp = last + 1;
  ++x_.rmw_merges;
  e.work.cpu_cycles += params_.cycles.map_update + params_.cycles.gc_victim;
  e.work.map_writes += 1;
}

void BlockFtl::close_rewrite(uint32_t lb, Emitter& e) {
  Logical& l = lb_[lb];
  const uint32_t top = highest_valid(lb, l.wp);
  if (top != kNone)
    for (; l.wp <= top; ++l.wp) fill(lb, l.cur, l.wp, nullptr, e);  // reads from the old copy (off >= wp)
  ++x_.rewrite_closes;
  e.work.cpu_cycles += params_.cycles.gc_victim;
  maybe_finish_rewrite(lb, e);
}

void BlockFtl::maybe_finish_rewrite(uint32_t lb, Emitter& e) {
  Logical& l = lb_[lb];
  if (l.old == kNone || highest_valid(lb, l.wp) != kNone) return;
  const uint64_t first = uint64_t(lb) * geo_.pages_per_block;
  for (uint32_t off = l.wp; off < geo_.pages_per_block; ++off)
    if (state_[first + off] == PageState::Trimmed) state_[first + off] = PageState::Empty, ++x_.trimmed_pages_skipped;
  erase(l.old, e);
  free_[die_of(lb)].push_back(l.old);
  ++stats_.gc_runs;
  l.old = kNone;
  if (rewriting_ == lb) rewriting_ = kNone;
}

void BlockFtl::fill(uint32_t lb, uint32_t target, uint32_t offset, const Buffered* host, Emitter& e) {
  const uint64_t lpn = uint64_t(lb) * geo_.pages_per_block + offset;
  PageState& s = state_[lpn];
  Logical& l = lb_[lb];
  if (host) {
    if (s != PageState::Valid) ++l.valid;
    s = PageState::Valid;
    program(target, offset, {uint32_t(lpn), host->version}, false, e);
    return;
  }
  if (s == PageState::Valid) {  // copy: read the page where it lives now, program it
    const uint32_t src = offset < l.wp ? l.cur : l.old;
    const int32_t read = int32_t(e.work.ops.size());
    e.work.add({FlashOp::Kind::Read, page(src, offset), true, e.last_program});
    e.merged = true;
    const PageContent c = media_.read(BlockId(src), offset);
    media_.program(BlockId(target), offset, c);
    e.last_program = int32_t(e.work.ops.size());
    e.work.add({FlashOp::Kind::Program, page(target, offset), true, read});
    e.work.cpu_cycles += params_.cycles.gc_page;
    ++x_.rmw_pages_copied;
    ++stats_.gc_pages_moved;
    ++stats_.flash_pages_written;
    return;
  }
  if (s == PageState::Trimmed) ++x_.trimmed_pages_skipped;  // stale: not read, not copied
  s = PageState::Empty;
  program(target, offset, {}, true, e);  // filler: NAND programs a block's pages in order
  ++x_.filler_pages;
}

void BlockFtl::program(uint32_t block, uint32_t offset, PageContent c, bool gc, Emitter& e) {
  media_.program(BlockId(block), offset, c);
  const int32_t index = int32_t(e.work.ops.size());
  // Host pages wait for the merge traffic before them (barrier); otherwise
  // programs of a block follow each other in page order.
  const bool barrier = !gc && e.merged;
  e.work.add({FlashOp::Kind::Program, page(block, offset), gc, barrier ? -1 : e.last_program, barrier});
  if (gc) e.merged = true;
  e.last_program = index;
  ++stats_.flash_pages_written;
}

void BlockFtl::erase(uint32_t block, Emitter& e) {
  // After every op before it, among them the reads of this block.
  media_.erase(BlockId(block));
  e.work.add({FlashOp::Kind::Erase, geo_.first_page(BlockId(block)), true, -1, true});
  e.merged = true;
}

uint32_t BlockFtl::allocate(uint32_t die, Emitter& e) {
  std::deque<uint32_t>& pool = free_[die];
  if (pool.empty()) throw std::logic_error("block FTL: die " + std::to_string(die) + " has no free block");
  const uint32_t b = pool.front();
  pool.pop_front();
  if (dirty_[b]) {  // freed by TRIM and not erased in idle time: erase it now, before its programs
    dirty_[b] = 0;
    --dirty_count_;
    e.last_program = int32_t(e.work.ops.size());
    erase(b, e);
  }
  return b;
}

uint32_t BlockFtl::highest_valid(uint32_t lb, uint32_t from) const {
  const uint64_t first = uint64_t(lb) * geo_.pages_per_block;
  for (uint32_t off = geo_.pages_per_block; off-- > from;)
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
  const uint32_t ppb = geo_.pages_per_block;
  std::vector<uint8_t> owned(geo_.blocks(), 0);
  auto own = [&](uint32_t b, uint32_t die, const std::string& who) {
    if (b >= geo_.blocks() || owned[b]++) fail("block " + std::to_string(b) + " owned twice (" + who + ")");
    if (geo_.die_of(BlockId(b)).v != die) fail(who + " in block " + std::to_string(b) + " off its die");
  };
  for (uint32_t lb = 0; lb < logical_blocks_; ++lb) {
    const Logical& l = lb_[lb];
    const std::string who = "logical block " + std::to_string(lb);
    if (l.cur == kNone && (l.wp || l.old != kNone || l.valid)) fail(who + " has no copy but state");
    if (l.cur != kNone) {
      own(l.cur, die_of(lb), who);
      if (l.wp == 0 || l.wp > ppb || !media_.is_programmed(page(l.cur, l.wp - 1)) ||
          (l.wp < ppb && media_.is_programmed(page(l.cur, l.wp))))
        fail(who + " write pointer " + std::to_string(l.wp) + " disagrees with the flash");
    }
    if (l.old != kNone) own(l.old, die_of(lb), who + " (old copy)");
    if ((l.old != kNone) != (rewriting_ == lb)) fail(who + " old copy vs the block in rewrite");
    uint32_t valid = 0;
    for (uint32_t off = 0; off < ppb; ++off) {
      const uint64_t lpn = uint64_t(lb) * ppb + off;
      if (state_[lpn] == PageState::Empty) continue;
      const uint32_t b = off < l.wp ? l.cur : l.old;
      if (b == kNone || !media_.is_programmed(page(b, off)))
        fail("LPN " + std::to_string(lpn) + " has data on flash that is not there");
      if (state_[lpn] != PageState::Valid) continue;
      if (lpn >= user_pages_) fail("LPN " + std::to_string(lpn) + " beyond the user capacity is valid");
      const PageContent c = media_.read(BlockId(b), off);
      if (c.version && c.lpn != lpn) fail("LPN " + std::to_string(lpn) + " maps to a page of LPN " + std::to_string(c.lpn));
      ++valid;
    }
    if (valid != l.valid) fail(who + " valid count " + std::to_string(l.valid) + ", found " + std::to_string(valid));
  }
  uint32_t dirty = 0;
  for (uint32_t d = 0; d < geo_.dies(); ++d)
    for (uint32_t b : free_[d]) {
      own(b, d, "free block");
      if (dirty_[b]) ++dirty;
      else if (media_.is_programmed(geo_.first_page(BlockId(b)))) fail("free block " + std::to_string(b) + " not erased");
    }
  if (dirty != dirty_count_) fail("dirty block count");
  for (uint32_t b = 0; b < geo_.blocks(); ++b)
    if (!owned[b]) fail("block " + std::to_string(b) + " lost");
  if (buffer_.size() >= buffer_pages_ || (buffer_.empty() != (buffer_lb_ == kNone))) fail("write buffer state");
  for (size_t i = 0; i < buffer_.size(); ++i)
    if (find_buffered(buffer_[i].offset) != int(i) || uint64_t(buffer_lb_) * ppb + buffer_[i].offset >= user_pages_)
      fail("write buffer entry " + std::to_string(i));
}

}  // namespace ssd::ftl
