#pragma once
// Hybrid log-block FTLs: BAST (Kim et al. 2002, "A space-efficient flash
// translation layer for CompactFlash systems") and FAST (Lee et al. 2007,
// "A log buffer-based flash translation layer using fully-associative
// sector translation"), sharing this engine.
//
// Data blocks are block-mapped: logical block L (LPNs L*P .. L*P+P-1, P pages
// per block) lives in one physical block, page k holding LPN L*P+k. Logical
// block L belongs to die L % dies, and everything that serves it (its data
// block, its log blocks, the blocks its merges write) is on that die, so a
// merge never crosses dies. With `ftl.hybrid.stripe` = s > 1 the engine
// runs on die groups and block sets instead (as multi-channel controllers
// stripe a logical block): group g is dies g*s .. g*s+s-1 (s channels), a
// block is block j of each die of its group (s x P pages), and its page k
// is page k / s of block j on die k % s; a logical block is s x P LPNs, so
// a sequential stream and a merge run on s dies at once. A block set's
// erases are one per die, each after every earlier op of the work but not
// after its sibling erases. With `ftl.hybrid.interleave` host LPN l belongs
// to die (group) l % G instead, whose logical blocks are made of every G-th
// LPN: consecutive pages spread over every die, a merge stays on one; the
// engine runs on the permuted LPNs (eng()), the spare area keeps the host's. Each die has a pool of `ftl.log_blocks`
// page-mapped log blocks that absorb updates:
//  - BAST: a log block belongs to one logical block; a write appends to its
//    logical block's log (opening one, and merging the oldest log of the die
//    when the pool is exhausted; a full log is merged before the next write).
//  - FAST: one sequential log per die takes a write at offset 0 of a logical
//    block and the writes that continue it in order; every other write goes
//    to the die's random logs (log_blocks - 1 of them), shared by all of the
//    die's logical blocks; when they are exhausted the oldest is merged
//    (round robin): a full merge of every logical block with a valid page in it.
// Merges: switch (an in-order log with nothing left to copy becomes the data
// block; the old data block is erased), partial (an in-order log prefix: the
// rest of the logical block's latest pages are copied behind it, then
// switch), full (every valid page of the logical block, latest version, is
// copied into a fresh block; the old data block and the log are erased).
// Copies are gc FlashOps, each read before the program that copies it, the
// erases after every read (barrier). Flash programs pages in order, so a
// merge that meets a hole (never written or trimmed) below a page it copies
// programs a pad page there (counted); trimmed pages are never copied.
//
// Functionally the engine keeps a page-level location of each LPN's latest
// version (l2p_) and its reverse (p2l_), which the firmware would derive from
// the block map and the log page maps; map_bytes() counts only the latter.

#include <cstdint>
#include <deque>
#include <vector>

#include "model/ftl/big_table.h"
#include "model/ftl/ftl.h"

namespace ssd::ftl {

class HybridFtl : public Ftl {
 public:
  enum class Scheme { Bast, Fast };
  HybridFtl(const FtlParams& p, FlashMedia& media, Scheme scheme);

  // Options both schemes declare (one default each).
  static std::vector<FtlOptionSpec> options();
  // map_bytes() of a hybrid FTL built from `p` (FtlTableBytes).
  static uint64_t table_bytes(const FtlParams& p, Scheme scheme);

  uint64_t user_pages() const override { return user_pages_; }
  void read(Lpn lpn, FtlWork& work) override;
  void write(Lpn lpn, uint64_t version, FtlWork& work) override;
  void trim(Lpn lpn, FtlWork& work) override;
  Ppn lookup(Lpn lpn) const override {
    const uint32_t p = l2p_[eng(lpn.v)];
    return p == kNone ? Ppn(kNone) : phys(p);
  }
  const FtlStats& stats() const override { return stats_; }
  uint64_t map_bytes() const override;
  void check_consistency() const override;
  void reset_stats() override;
  bool checkpoint(Checkpoint& c) override;
  // The state of long uniform random overwrites (the `steady` phase),
  // written, but short: a fill and a few rounds of the log blocks
  // (hybrid_ftl.cpp).
  bool steady_state(uint64_t seed, const std::function<uint64_t(uint64_t)>& version) override;
  // Idle time (ftl.hybrid.idle_merge): one merge per slice, of the fullest
  // log block (the oldest among equals), until no log block is in use.
  bool background(FtlWork& work) override;
  std::vector<FtlStat> extra_stats() const override;

 private:
  // The engine's logical space and log pool, from the parameters (checked
  // before any table is built).
  struct Layout {
    uint32_t interleave;    // interleave_
    uint64_t engine_pages;  // engine_pages_
    uint32_t logical_blocks;
    uint32_t dies;          // of the engine's geometry (die groups)
    uint32_t ppb;           // its pages per block (ppb_)
    uint32_t pool;          // log blocks per die
  };
  static Layout layout(const FtlParams& p, Scheme scheme);
  static constexpr uint32_t kNone = UINT32_MAX;
  enum class Role : uint8_t { Free, Data, Log };
  struct Log {
    uint32_t block = kNone;  // kNone: slot unused
    uint32_t owner = kNone;  // logical block (BAST, FAST sequential); kNone: FAST random
    uint32_t used = 0;       // pages programmed
    bool in_order = true;    // page i holds offset i of `owner` for every i < used
    bool sequential = false; // FAST's sequential log
    uint64_t born = 0;       // opening order
    std::vector<uint32_t> lpns;  // the log page map: LPN written at each page
  };
  struct Die {
    std::deque<uint32_t> free_blocks;
    std::vector<uint32_t> logs;  // slots in use, oldest first
    uint32_t seq = kNone;        // FAST: the sequential log's slot
    uint32_t cur = kNone;        // FAST: the random log being filled
  };
  struct MergeCounts {
    uint64_t switches = 0, partials = 0, fulls = 0, copied = 0, padded = 0, trimmed_skipped = 0;
  };

  void write_bast(uint32_t lpn, uint64_t version, FtlWork& work);
  void write_fast(uint32_t lpn, uint64_t version, FtlWork& work);
  // A log slot on `die` for `owner` (kNone: FAST random), merging the
  // victim first if the die's pool is exhausted (then sets `merged`).
  uint32_t open_log(uint32_t die, uint32_t owner, bool sequential, FtlWork& work, bool& merged);
  void append(uint32_t slot, uint32_t lpn, uint64_t version, FtlWork& work, bool after_merge);
  // Merge a log block by the kind it allows and free its slot.
  void merge_log(uint32_t slot, FtlWork& work);
  // Switch or partial merge of an in-order log: it becomes the data block.
  void merge_in_place(uint32_t slot, FtlWork& work);
  // Copy the latest version of every valid page of logical block L into a
  // fresh block (its new data block) and erase the old data block.
  void full_merge(uint32_t lb, FtlWork& work);
  // One past the highest of pages `from` .. `n`-1 of the logical block
  // starting at LPN `first` that has data (`from` if none has; never below it).
  uint32_t data_end(uint32_t first, uint32_t from, uint32_t n) const;
  // copy_into for the pages `from` .. `to`-1 of the logical block starting
  // at LPN `first`, into the same pages of `block`; in functional runs (no
  // ops) without tracked content, the same state changes in one pass.
  void copy_range(uint32_t first, uint32_t from, uint32_t to, uint32_t block, FtlWork& work);
  // Copy the latest version of `lpn` (or a pad when it has none) to the next
  // page of `block`; `first` makes it wait for all earlier ops of the work.
  void copy_into(uint32_t lpn, uint32_t block, uint32_t page, bool& first, FtlWork& work);
  void erase_block(uint32_t block, FtlWork& work);
  void release(uint32_t slot);
  void invalidate(uint32_t ppn);
  uint32_t die_of_lb(uint32_t lb) const { return lb % geo_.dies(); }
  uint32_t die_of_block(uint32_t block) const { return block / geo_.blocks_per_die(); }
  uint32_t lb_pages(uint32_t lb) const;  // pages of logical block lb inside the user capacity
  // ftl.hybrid.stripe: the engine's page (block * ppb_ + page, in geo_: die
  // groups and block sets) on the flash (in phys_), and member `k` of a block set.
  Ppn phys(uint32_t ppn) const;
  BlockId phys_block(uint32_t block, uint32_t k) const;
  void program(uint32_t block, uint32_t page, const PageContent& c) {
    if (stripe_ == 1) return media_.program(BlockId(block), page, c);
    media_.program(phys_block(block, page % stripe_), page / stripe_, c);
  }
  // ftl.hybrid.interleave: the host's LPN as the engine's (die group
  // lpn % groups, its logical blocks of every groups-th LPN), and back.
  uint32_t eng(uint32_t lpn) const;
  uint32_t host(uint32_t lpn) const;

  FtlParams params_;
  FlashGeometry phys_;      // the flash
  FlashGeometry geo_;       // what the engine runs on: die groups, block sets
  uint32_t stripe_;         // ftl.hybrid.stripe: dies per group
  FlashMedia& media_;
  Scheme scheme_;
  uint32_t ppb_;            // pages per block
  uint64_t user_pages_;
  uint32_t interleave_ = 0;  // ftl.hybrid.interleave: the die groups LPNs rotate over (0: off)
  uint64_t engine_pages_;    // the engine's LPNs (user_pages_, rounded up to whole rows when interleaved)
  uint32_t logical_blocks_;
  uint32_t pool_;           // log blocks per die
  bool idle_merge_;
  BigTable<uint32_t> l2p_, p2l_;  // (huge pages: looked up at random)
  std::vector<bool> trimmed_;       // trimmed since its last copy existed
  std::vector<uint32_t> data_;      // logical block -> data block
  std::vector<uint32_t> log_of_;    // BAST: logical block -> its log slot
  std::vector<uint16_t> valid_;     // valid pages per block
  std::vector<Role> role_;
  std::vector<Log> logs_;           // die d owns slots d*pool_ .. d*pool_+pool_-1
  std::vector<Die> dies_;
  uint64_t clock_ = 0;
  FtlStats stats_;
  MergeCounts merges_;
};

}  // namespace ssd::ftl
