#pragma once
// Page-level mapping FTL (the X25-M style): every logical page maps to any
// physical page; writes go out of place to the current active block of the
// next die in round-robin order (so consecutive writes stripe across
// channels, then dies). Each die has its own free-block pool, a host active
// block and a GC active block (GC copies stay apart from fresh host data).
// Greedy GC: the victim is the closed block with the fewest valid pages,
// found in O(1) amortised through buckets by valid-page count (as in the
// Cosmos+ FTL). GC is incremental and foreground: once a die is down to
// `gc_threshold` free blocks, each host write on it first moves a slice of
// the victim's valid pages (valid/invalid of them, so the victim is free by
// the time the host has used the pages it gives back); below the threshold,
// victims are collected whole before host data may take a block.
//
// Policies (options ftl.gc.* and ftl.wl.*; their defaults give exactly the
// behaviour above): other victim policies (gc_policy.h), background GC in
// idle time up to its own free-block watermark (only when the firmware has
// idle time to give, ftl.idle_after > 0), host and GC data sharing one open
// block instead of two, and dynamic and static wear levelling
// (wear_leveling.h). See docs/ftl.md, section "page".

#include <algorithm>
#include <deque>
#include <set>
#include <utility>
#include <vector>

#include "model/ftl/big_table.h"
#include "model/ftl/ftl.h"
#include "model/ftl/page/bucket_oldest.h"
#include "model/ftl/page/gc_policy.h"
#include "model/ftl/page/rank_index.h"
#include "model/ftl/page/wear_leveling.h"

namespace ssd::ftl {

class PageFtl : public Ftl {
 public:
  PageFtl(const FtlParams& p, FlashMedia& media);
  // map_bytes() of a page FTL built from `p` (FtlTableBytes): one entry per user page.
  static uint64_t table_bytes(const FtlParams& p) { return user_pages_for(p) * p.map_entry_bytes; }

  uint64_t user_pages() const override { return user_pages_; }
  bool background(FtlWork& work) override;
  std::vector<FtlStat> extra_stats() const override;
  void read(Lpn lpn, FtlWork& work) override;
  void write(Lpn lpn, uint64_t version, FtlWork& work) override;
  void trim(Lpn lpn, FtlWork& work) override;
  Ppn lookup(Lpn lpn) const override { return Ppn(l2p_[lpn.v]); }
  void prefetch(Lpn lpn) const override { __builtin_prefetch(&l2p_[lpn.v]); }
  const FtlStats& stats() const override { return stats_; }
  uint64_t map_bytes() const override { return table_bytes(params_); }
  void check_consistency() const override;
  void prefetch(Lpn lpn, int stage) const override {
    if (stage == 0) return __builtin_prefetch(&l2p_[lpn.v]);
    const uint32_t old = l2p_[lpn.v];
    if (old == kNone) return;
    __builtin_prefetch(&p2l_[old], 1);  // the page it will invalidate, and that page's block
    __builtin_prefetch(&blocks_[old / geo_.pages_per_block], 1);
  }
  void reset_stats() override;
  // Preconditioning's random writes, on up to `threads` threads: each takes
  // a share of the dies (bulk_writes.cpp). The state is write()'s page by page.
  void write_pages(const std::vector<uint32_t>& lpns, uint64_t first_version, unsigned threads,
                   FtlWork& work) override;
  // Batches of bulk writes run on several threads so far (for tests: not state).
  uint64_t parallel_batches() const { return parallel_batches_; }
  // Greedy GC's steady state under uniform random writes (steady_state.cpp).
  bool steady_state(uint64_t seed, const std::function<uint64_t(uint64_t)>& version) override;
  // steady_state() fills the mapping table in windows of this many LPNs (a
  // pass over the reverse table each; 1 GiB of entries, steady_state.cpp);
  // tests make them small to run many. The state is the same whatever it is.
  void map_fill_window(uint64_t lpns) { map_fill_window_ = std::max<uint64_t>(lpns, 1); }
  // A command of several pages gives each die params.die_pages consecutive
  // pages (multi-plane pairs); single pages go round the dies one by one.
  void begin_command(const HostRun& run) override { multi_page_ = run.op == HostRun::Op::Write && run.pages > 1; }
  bool checkpoint(Checkpoint& c) override;

 protected:
  // (Protected for FTLs built on this one's block management, e.g. dftl.)
  static constexpr uint32_t kNone = UINT32_MAX;
  enum class BlockState : uint8_t { Free, Active, Closed, Victim };
  struct WritePoint {
    uint32_t block = kNone;  // drive-wide block id
    uint32_t next_page = 0;
  };
  struct Die {
    std::deque<uint32_t> free_blocks;
    WritePoint host, gc;
    std::vector<uint32_t> bucket_head;  // by valid count: closed blocks
    uint32_t victim = kNone;            // block being collected
    uint32_t victim_cursor = 0;         // next page of the victim to look at
    uint32_t victim_budget = 1;         // pages to move per host write
    bool victim_wl = false;             // the victim is a static wear-levelling move, not GC
    bool wl_pending = false;            // the erase-count spread may exceed ftl.wl.threshold
  };

  // Write `content` as logical page `id` (an index into l2p_) on the next die
  // in turn, after the slice of foreground GC that die owes; sets `after_gc`
  // when that GC emitted ops the program must wait for. Returns the new Ppn.
  Ppn place(uint32_t id, const PageContent& content, FtlWork& work, bool& after_gc);
  // Where a stream of writes goes next: its die, and the pages that die has
  // taken in this turn. place() above is the host data's stream; an FTL with
  // a stream of its own (dftl's translation pages) keeps its own cursor, so
  // the two do not alias.
  struct DieCursor {
    uint32_t die = 0;
    uint32_t turn = 0;
  };
  // The die the next page of `cursor`'s stream goes to, the cursor moved on
  // (the bulk writes' plan makes the same choice: bulk_writes.cpp).
  uint32_t next_die(DieCursor& cursor, uint32_t per_turn);
  // place() for the stream of `cursor`, `per_turn` pages to a die in turn.
  Ppn place(DieCursor& cursor, uint32_t per_turn, uint32_t id, const PageContent& content, FtlWork& work,
            bool& after_gc);
  // GC has just moved logical page `id` (its l2p_ entry is updated).
  virtual void on_moved(uint32_t /*id*/) {}
  // Next free page on `die` for host or GC data; sets `block` and `page`
  // (avoiding divisions on the hot path) and returns the Ppn.
  Ppn allocate(uint32_t die, bool for_gc, FtlWork& work, uint32_t& block, uint32_t& page);
  // The write point is full (or none is open): close it and open a free
  // block, collecting victims first if host data would take the reserve.
  __attribute__((noinline)) void open_block(uint32_t die, bool for_gc, WritePoint& wp, FtlWork& work);
  // Move a slice of the die's victim (choosing one if none), or all of it
  // with `finish`; erases it when done. False if nothing is reclaimable.
  bool collect(uint32_t die, bool finish, FtlWork& work);
  template <bool kLane>
  bool collect_in(uint32_t die, bool finish, FtlWork& work);  // collect(), within a bulk write's thread or not
  // Cost-benefit's victim on `die` through bucket_oldest_ (kNone: nothing reclaimable).
  uint32_t cost_benefit_victim(uint32_t die);
  // Make `block` (closed) the die's victim.
  void begin_victim(uint32_t die, uint32_t block, bool wear_levelling, FtlWork& work);
  // Static wear levelling: move the die's coldest closed block if the spread
  // calls for it and the die has room. True if it moved one.
  bool level_wear(uint32_t die, FtlWork& work);
  bool is_closed(uint32_t block) const { return blocks_[block].state == BlockState::Closed; }
  // What GC can take from: closed, with an invalid page.
  bool is_reclaimable(uint32_t block) const {
    return is_closed(block) && blocks_[block].valid < geo_.pages_per_block;
  }
  void invalidate(uint32_t ppn);
  void close_block(uint32_t block);
  // A closed block into (out of) its valid count's bucket and, if it has an
  // invalid page, the kept index (reclaimable_, oldest_ or bucket_oldest_);
  // link/unlink: the bucket list only.
  void bucket_insert(uint32_t block);
  void bucket_remove(uint32_t block);
  void bucket_link(uint32_t block);
  void bucket_unlink(uint32_t block);
  // What is derived from the blocks' states and free lists: the kept victim
  // index, dynamic wear levelling's count of the free blocks and static wear
  // levelling's erase-count index (on a new drive, after a saved state is
  // loaded, after a modelled steady state).
  void rebuild_indexes();
  // `block` becomes (stops being) reclaimable: into (out of) the kept index.
  void mark_reclaimable(uint32_t block, bool in);

  // A thread's share of a bulk write (bulk_writes.cpp): its own counters,
  // the blocks it closed (their closed_at_ is known once the batch is
  // done), and the map entries of the pages it took over from another
  // thread's dies in this batch (written to l2p_ once the batch is done: the
  // other thread may still move or invalidate the old copy under the same
  // entry). lane_ is the current thread's, null outside a bulk write: the
  // functions below count, map and close through it when it is set.
  struct Lane;
  static thread_local Lane* lane_;
  // Whether write_pages() runs these writes on several threads.
  bool bulk_parallel(unsigned threads, const std::vector<uint32_t>& lpns) const;

  FtlParams params_;
  FlashGeometry geo_;
  FlashMedia& media_;
  uint64_t user_pages_;
  uint64_t map_fill_window_ = uint64_t(1) << 28;  // steady_state(): see map_fill_window()
  BigTable<uint32_t> l2p_;             // LPN -> PPN (a derived FTL may append its own pages)
  BigTable<uint32_t> p2l_;             // PPN -> LPN (kNone: invalid or erased)
  // Per block, what an invalidation reads and re-files, in one 16-byte
  // record: a terabyte drive has a million blocks, met at random, and one
  // record costs one cache miss where four tables cost four.
  struct alignas(16) BlockInfo {
    uint32_t next = kNone, prev = kNone;  // the die's bucket list of its valid count
    uint16_t valid = 0;                   // valid pages
    BlockState state = BlockState::Free;
    uint8_t pad0 = 0;                     // (explicit: a saved state holds no stray bytes)
    uint32_t pad1 = 0;
  };
  static_assert(sizeof(BlockInfo) == 16, "four block records a cache line");
  BigTable<BlockInfo> blocks_;
  std::vector<Die> dies_;
  std::vector<uint64_t> die_valid_;  // valid pages per die
  uint64_t die_cap_ = 0;             // most valid pages a die may hold (see constructor)
  DieCursor cursor_;                 // the host data's stream (place())
  bool multi_page_ = false;          // the current host write command has several pages
  FtlStats stats_;

  // Policies (defaults: greedy through the buckets, separate GC block, no WL).
  VictimPicker picker_;          // non-greedy victim policies
  // The dies' reclaimable blocks (closed, with an invalid page), kept for
  // the policies that would otherwise list them at every pick: by rank in
  // block order (random, d-choice), by (closed_at, block) (fifo), the oldest
  // of each valid count (cost-benefit); empty else.
  RankIndex reclaimable_;
  std::vector<std::set<std::pair<uint64_t, uint32_t>>> oldest_;
  BucketOldest bucket_oldest_;
  bool indexed_ = false;         // one of the three is kept (a flag: the hot path tests one bool)
  WearLeveler wl_;
  bool separate_ = true;         // GC copies go to their own open block
  uint32_t bg_threshold_ = 0;    // background GC while a die has fewer free blocks
  uint64_t seq_ = 0;             // pages programmed so far: the clock of block ages
  BigTable<uint64_t> closed_at_;     // per block: seq_ when it was closed
  uint32_t bg_cursor_ = 0;       // die the next background slice looks at first
  uint64_t victims_ = 0, victim_valid_ = 0, bg_runs_ = 0, bg_pages_ = 0;
  uint64_t parallel_batches_ = 0;
};

}  // namespace ssd::ftl
