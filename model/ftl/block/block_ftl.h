#pragma once
// Block-level mapping FTL (the JMicron JMF602 class of DRAM-less SATA
// controllers). A logical block (pages_per_block consecutive LPNs) maps to
// one physical block, and a page keeps its offset: LPN % pages_per_block is
// its page in the block. The block map is tiny (one entry per logical
// block), which is why it fits in controller SRAM. With `ftl.block.stripe`
// = s > 1 a logical block is s x pages_per_block LPNs on s dies, its page i
// on die i % s at page i / s, in blocks of the same index on each die (one
// map entry still names the set). With multi-plane operations
// (nand.multiplane, P planes) the unit of the stripe is P pages: pages i..i+P-1
// (i a multiple of P) sit on one die, on its P planes at one physical page,
// so a sequential read, a flush and a merge's copies run as P-plane
// operations (the blocks are then multi-plane blocks of P x pages_per_block).
//
// Writes first land in a small SRAM write buffer (`ftl.block.buffer` pages)
// that holds pages of up to `ftl.block.buffer_blocks` logical blocks (1 by
// default); it is flushed when full or when a write to a further logical
// block arrives (and in idle time). A flush drains every logical block it
// holds, one after another in the order they came: a block's flash work
// starts once the previous block's has ended (the ops with no predecessor
// on their die wait for everything before, FlashOp::barrier/sibling), so a
// buffer of N random pages is N merges back to back. A write into the
// buffer completes no earlier than the last flush (FtlWork::into_buffer):
// its slot is free only once the pages before it are on flash. For each
// block a flush is:
//  - an append: the pages are exactly the next pages of the logical block's
//    open copy, in order: one program per page, nothing else;
//  - a rewrite (sequential streams only, see begin_command): the pages are
//    one in-order run that does not continue the open copy: a new copy is
//    opened on the same dies, the valid pages before the run are copied into
//    it, the run is programmed, and the old copy keeps the pages after the
//    run until the stream has rewritten them (then it is erased without a
//    copy) or the rewrite is closed (its remaining valid pages are copied);
//    one logical block at a time may be in rewrite;
//  - otherwise a read-modify-write (the quarter-second stall of these
//    drives): every valid page of the old copy is read and programmed with
//    the buffered pages, in page order, into a free block on the same dies,
//    and the old block(s) are erased.
// NAND programs the pages of a block in order, so a hole (a page never
// written, or trimmed) below a later page of a new copy is programmed with
// filler. Logical block L lives on die group L % (dies / s), so sequential
// data stripes over channels and dies. Merge traffic (copies, filler,
// erases) is marked gc; on each die a flush's ops run in the order listed, so
// a host page waits for the merge traffic before it. There is no other GC: the
// spare blocks of a die are the targets of its merges. TRIM invalidates
// pages; a logical block left with no valid page gives its blocks back
// (erased on reuse, or in idle time).

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "model/ftl/big_table.h"
#include "model/ftl/ftl.h"

namespace ssd::ftl {

class BlockFtl : public Ftl {
 public:
  BlockFtl(const FtlParams& p, FlashMedia& media);
  // map_bytes() of a block FTL built from `p` (FtlTableBytes): one entry per logical block.
  static uint64_t table_bytes(const FtlParams& p);

  void begin_command(const HostRun& run) override;
  bool background(FtlWork& work) override;
  std::vector<FtlStat> extra_stats() const override;
  uint64_t user_pages() const override { return user_pages_; }
  void read(Lpn lpn, FtlWork& work) override;
  void write(Lpn lpn, uint64_t version, FtlWork& work) override;
  void trim(Lpn lpn, FtlWork& work) override;
  // Where the LPN's data lives on flash (a newer copy may sit in the buffer).
  Ppn lookup(Lpn lpn) const override;
  // Preconditioning's random writes: stage 0 fetches the logical block's
  // map entry and page states (a merge reads them), stage 1 its flash
  // blocks' counters (the merge erases them).
  void prefetch(Lpn lpn, int stage) const override;
  // Preconditioning's random writes in bulk (block_ftl_bulk.cpp): the
  // write buffer runs in turn, and the merges its flushes make run die group
  // by die group on up to `threads` threads (a merge touches only its
  // logical block and its group's blocks, and each group's merges keep their
  // order), so the state and statistics are those of write() page by page.
  // Page by page anyway when a merge might reach outside its group: TRIMmed
  // pages or dirty blocks about, a rewrite open, a sequential stream, content
  // tracked.
  void write_pages(const std::vector<uint32_t>& lpns, uint64_t first_version, unsigned threads,
                   FtlWork& work) override;
  const FtlStats& stats() const override { return stats_; }
  uint64_t map_bytes() const override { return table_bytes(params_); }
  void check_consistency() const override;
  void reset_stats() override;
  bool checkpoint(Checkpoint& c) override;
  // The state of long uniform random overwrites (the `steady` phase):
  // written, but short (block_ftl.cpp).
  bool steady_state(uint64_t seed, const std::function<uint64_t(uint64_t)>& version) override;

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  enum class PageState : uint8_t { Empty, Valid, Trimmed };  // Trimmed: stale data still on flash
  struct Logical {           // copies are block sets (a block index on each die of the group)
    uint32_t cur = kNone;  // open copy: valid pages below wp live here
    uint32_t old = kNone;  // in rewrite: valid pages from wp up live here
    uint32_t wp = 0;       // next page to program in cur
    uint32_t valid = 0;    // valid pages on flash (either copy)
  };
  struct Extra {  // the statistics beyond FtlStats (extra_stats)
    uint64_t rmw_merges = 0, rmw_pages_copied = 0, appends = 0, buffer_hits = 0, buffer_flushes = 0,
             buffer_overwrites = 0, trimmed_pages_skipped = 0, filler_pages = 0, rewrites = 0, rewrite_closes = 0,
             blocks_freed_by_trim = 0;
    Extra& operator+=(const Extra& o) {
      rmw_merges += o.rmw_merges, rmw_pages_copied += o.rmw_pages_copied, appends += o.appends;
      buffer_hits += o.buffer_hits, buffer_flushes += o.buffer_flushes, buffer_overwrites += o.buffer_overwrites;
      trimmed_pages_skipped += o.trimmed_pages_skipped, filler_pages += o.filler_pages, rewrites += o.rewrites;
      rewrite_closes += o.rewrite_closes, blocks_freed_by_trim += o.blocks_freed_by_trim;
      return *this;
    }
  };
  struct Buffered {
    uint32_t offset;  // in its logical block
    uint32_t lb;      // its logical block
    uint64_t version;
  };
  // The NAND ops of one flush, chained per die through last_op_ (each die's
  // ops run in the order listed: a copy's read, then its program; the pages
  // of a block in order; an erase after every read of its block).
  struct Emitter {
    FtlWork& work;
    FtlStats& stats;  // where the merges count (a thread's own in write_pages)
    Extra& x;
    bool after_earlier = false;  // a later block of the flush: its first ops wait for the earlier blocks'
    bool head_added = false;     // ... and the first of them has been added (the others are its siblings)
  };
  // Add `op` to the flush (see Emitter).
  void add(Emitter& e, FlashOp op);

  uint32_t group_of(uint32_t lb) const { return lb % groups_; }
  // (The stripe-of-one case skips the divisions: merges call these per page.)
  uint32_t die_of(uint32_t lb, uint32_t offset) const {
    return stripe_ == 1 ? group_of(lb) : group_of(lb) * stripe_ + (offset / unit_) % stripe_;
  }
  // Page `offset` of logical block `lb` in its block set `set`.
  Ppn page(uint32_t lb, uint32_t set, uint32_t offset) const {
    const uint32_t in_block = stripe_ == 1 ? offset : offset / (unit_ * stripe_) * unit_ + offset % unit_;
    return Ppn(geo_.block(DieId(die_of(lb, offset)), set).v * geo_.pages_per_block + in_block);
  }
  // Pages of the open copy below the write pointer `wp` on member die `j`.
  uint32_t below(uint32_t wp, uint32_t j) const {
    const uint32_t row = unit_ * stripe_, rest = wp % row;
    return wp / row * unit_ + std::min(unit_, rest > j * unit_ ? rest - j * unit_ : 0u);
  }
  // The predecessor of a flush's op on the die of page `offset`: the die's
  // last op, except that the ops of one unit (the planes of a physical page)
  // all follow what came before the unit, so they can pair up as
  // multi-plane operations (a copy's program still follows its own read).
  int32_t unit_after(uint32_t lb, uint32_t offset);
  void start_ops();  // a flush (or idle slice) begins: no op on any die yet
  int find_buffered(uint32_t lb, uint32_t offset) const;
  bool holds(uint32_t lb) const { return std::find(held_.begin(), held_.end(), lb) != held_.end(); }
  void flush(FtlWork& work);
  // The write buffer's rule for one host page (write(), and write_pages on
  // its own copy of the buffer): a page of a further logical block while
  // `blocks` are held flushes first; a page already buffered is replaced
  // (counted in `overwrites`); a buffer of `pages` pages flushes. With
  // multi-plane units of `unit` pages, a page that fills the buffer while
  // opening a unit of a run (its block's page before it is buffered) stays
  // buffered for its partners, one multi-plane program with it: the stream
  // is back in step, and with a buffer of whole units its flushes split no
  // unit. (A stream out of step, e.g. behind an odd number of random pages
  // left in the buffer, would otherwise program one page at a time on half
  // its dies for as long as it runs.)
  template <class Flush>
  static void buffer_page(std::vector<Buffered>& buffer, std::vector<uint32_t>& held, const Buffered& page,
                          uint32_t blocks, uint32_t pages, uint32_t unit, uint64_t& overwrites, Flush&& flush) {
    if (std::find(held.begin(), held.end(), page.lb) == held.end()) {
      if (held.size() == blocks) flush();
      held.push_back(page.lb);
    }
    const auto same = std::find_if(buffer.begin(), buffer.end(),
                                   [&](const Buffered& b) { return b.offset == page.offset && b.lb == page.lb; });
    if (same != buffer.end()) {
      same->version = page.version;  // coalesced in SRAM: the older copy never reaches flash
      ++overwrites;
    } else {
      buffer.push_back(page);
      const auto before = [&](const Buffered& b) { return b.lb == page.lb && b.offset + 1 == page.offset; };
      if (buffer.size() == pages && unit > 1 && pages > 1 && page.offset % unit == 0 &&
          std::any_of(buffer.begin(), buffer.end() - 1, before)) {
        buffer.pop_back();  // (its block keeps its place in `held`: the page before it is buffered)
        flush();
        held.push_back(page.lb);
        buffer.push_back(page);
        return;
      }
    }
    if (buffer.size() == pages) flush();
  }
  // Append the buffered pages of `lb` to `out`, in offset order (a flush hands them on so).
  static void take_block(const std::vector<Buffered>& buffer, uint32_t lb, std::vector<Buffered>& out) {
    const auto first = std::ptrdiff_t(out.size());
    for (const Buffered& b : buffer)
      if (b.lb == lb) out.push_back(b);
    std::sort(out.begin() + first, out.end(), [](const Buffered& a, const Buffered& b) { return a.offset < b.offset; });
  }
  // A flush's work for one held logical block: an append, a rewrite or a read-modify-write.
  void merge_block(uint32_t lb, const std::vector<Buffered>& pages, Emitter& e);
  void append(uint32_t lb, const std::vector<Buffered>& run, Emitter& e);
  void rewrite(uint32_t lb, const std::vector<Buffered>& run, Emitter& e);
  void rmw(uint32_t lb, const std::vector<Buffered>& pages, Emitter& e);
  // rmw's pages 0..written-1 into `target` counted rather than walked (the
  // same state and statistics as fill() page by page, at a cost of the host
  // pages): functional runs (no ops), no tracked content, no trimmed page.
  void merge_counted(uint32_t lb, const std::vector<Buffered>& pages, uint32_t target, uint32_t written, Emitter& e);
  // Program page `offset` of `target` for `lb`: the host page `host` if
  // given, else a copy of its valid page, else filler (in-order rule).
  void fill(uint32_t lb, uint32_t target, uint32_t offset, const Buffered* host, Emitter& e);
  // Finish the rewrite of `lb`: copy its remaining valid pages, erase the old copy.
  void close_rewrite(uint32_t lb, Emitter& e);
  // Erase the old copy once no valid page is left in it.
  void maybe_finish_rewrite(uint32_t lb, Emitter& e);
  uint32_t allocate(uint32_t group, Emitter& e);  // a block set (erased first if TRIM left it dirty)
  void erase(uint32_t group, uint32_t set, Emitter& e);
  // `after`: its predecessor (unit_after, or a copy's read).
  void program(uint32_t lb, uint32_t set, uint32_t offset, PageContent c, bool gc, int32_t after, Emitter& e);
  uint32_t highest_valid(uint32_t lb, uint32_t from) const;  // kNone if none

  FtlParams params_;
  FlashGeometry geo_;
  FlashMedia& media_;
  uint64_t user_pages_;
  uint32_t stripe_, groups_;  // dies per logical block; die groups
  uint32_t unit_;             // consecutive pages per die: the planes of a multi-plane operation, else 1
  uint32_t lpb_;              // pages per logical block
  uint32_t logical_blocks_;
  uint32_t buffer_pages_;
  uint32_t buffer_blocks_;  // logical blocks the buffer may hold at once
  // (Looked up at random by random writes: huge pages, big_table.h.)
  BigTable<Logical> lb_;
  BigTable<PageState> state_;        // per LPN: where its flash data stands
  std::vector<std::deque<uint32_t>> free_;  // per die group: free block sets (block index in each die)
  std::vector<uint8_t> dirty_;       // per group x set: free but not yet erased (freed by TRIM)
  std::vector<int32_t> last_op_;     // per die: the last op of the flush being built (-1: none)
  std::vector<int32_t> unit_base_;   // per die: the last op before its current unit (multi-plane)
  std::vector<uint64_t> unit_at_;    // per die: its current unit (a block's physical page), UINT64_MAX: none
  uint32_t dirty_count_ = 0;
  // Pages in state Trimmed: while there are none (always, in a drive that
  // never saw a TRIM), merges need not look for them.
  uint64_t trimmed_ = 0;
  std::vector<Buffered> buffer_;
  std::vector<uint32_t> held_;       // the logical blocks in the buffer, in the order they came
  std::vector<Buffered> flush_pages_;  // flush(): one held block's pages (reused: no allocation per flush)
  uint32_t rewriting_ = kNone;       // the logical block in rewrite
  bool stream_ = false;              // the current write command is part of a sequential stream
  // write_pages: per die group, the flushed logical blocks queued for their
  // merges (pages [first, first + count) of the group's queued pages), two
  // sides: one being run, the next being queued.
  struct Queued {
    uint32_t lb, first, count;
  };
  std::vector<std::vector<Queued>> queued_[2];
  std::vector<std::vector<Buffered>> queued_pages_[2];
  FtlStats stats_;
  Extra x_;
};

}  // namespace ssd::ftl
