// An out-of-tree FTL plug-in for ssdsim: `circular`, a page-mapped FTL that
// writes each die as a circular log. Host writes and GC copies append to the
// die's one open block (the log head); closed blocks queue in the order they
// were filled, and GC always takes the oldest (FIFO, the log tail), whatever
// its valid count: cheaper bookkeeping than greedy GC, paid for in copies of
// cold data (`fifo_full_victims` counts victims that freed nothing). In idle
// time it reclaims tail blocks that have an invalid page, up to
// `ftl.circular_idle_free` free blocks per die.
//
// Built as a shared library against an installed ssdsim (see CMakeLists.txt)
// and loaded with `ssdsim --ftl.plugin libcircular_ftl.so --ftl.name=circular`.
// Everything it needs is in model/ftl/ftl.h; FlashMedia's functions resolve
// against the ssdsim executable when the library is loaded.
#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "model/ftl/ftl.h"

namespace {

using namespace ssd;
using namespace ssd::ftl;

class CircularFtl : public Ftl {
 public:
  CircularFtl(const FtlParams& p, FlashMedia& media);
  // map_bytes() before the FTL is built (registered as its FtlTableBytes):
  // the controller refuses a DRAM too small for it without building it.
  static uint64_t table_bytes(const FtlParams& p) { return user_pages_for(p) * p.map_entry_bytes; }

  uint64_t user_pages() const override { return user_pages_; }
  void read(Lpn lpn, FtlWork& work) override;
  void write(Lpn lpn, uint64_t version, FtlWork& work) override;
  void trim(Lpn lpn, FtlWork& work) override;
  bool background(FtlWork& work) override;
  std::vector<FtlStat> extra_stats() const override;
  Ppn lookup(Lpn lpn) const override { return Ppn(l2p_[lpn.v]); }
  const FtlStats& stats() const override { return stats_; }
  uint64_t map_bytes() const override { return table_bytes(params_); }
  void check_consistency() const override;
  void reset_stats() override {
    stats_ = FtlStats{};
    full_victims_ = idle_victims_ = 0;
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Die {
    std::deque<uint32_t> free;  // erased blocks
    std::deque<uint32_t> log;   // closed blocks, oldest (the GC tail) first
    uint32_t head = kNone;      // the open block every write appends to
    uint32_t next_page = 0;
  };

  // The next page at `die`'s log head, opening a block when the head is full.
  // A host append first collects tail blocks until more than `reserve_`
  // blocks are free, so a GC copy always finds a block.
  Ppn append(uint32_t die, bool host, FtlWork& work);
  // Move the valid pages of the die's oldest closed block to the head, then
  // erase it.
  void collect_tail(uint32_t die, FtlWork& work);
  void invalidate(uint32_t ppn);

  FtlParams params_;
  FlashGeometry geo_;
  FlashMedia& media_;
  uint64_t user_pages_;
  uint32_t reserve_;    // free blocks a die keeps for GC (ftl.gc_threshold, at least 1)
  uint32_t idle_free_;  // ftl.circular_idle_free
  uint64_t die_cap_;    // most valid pages a die may hold (see the constructor)
  std::vector<uint32_t> l2p_, p2l_;  // LPN -> PPN, PPN -> LPN (kNone: none)
  std::vector<uint32_t> valid_;      // valid pages per block
  std::vector<uint64_t> die_valid_;  // valid pages per die
  std::vector<Die> dies_;
  uint32_t die_cursor_ = 0, idle_cursor_ = 0;
  FtlStats stats_;
  uint64_t full_victims_ = 0, idle_victims_ = 0;
};

CircularFtl::CircularFtl(const FtlParams& p, FlashMedia& media)
    : params_(p), geo_(p.geometry), media_(media), user_pages_(user_pages_for(p)),
      reserve_(std::max<uint32_t>(p.gc_threshold, 1)), idle_free_(uint32_t(p.options.get("ftl.circular_idle_free"))) {
  const uint64_t die_pages = uint64_t(geo_.dies()) * geo_.pages_per_block;
  const uint64_t spare = geo_.blocks_per_die() - (user_pages_ + die_pages - 1) / die_pages;
  // A die takes host data only while it holds at most its blocks less the
  // reserve and two (the head and one to fill) of valid pages. Then when its
  // free blocks are down to the reserve, the closed blocks hold more pages
  // than are valid: walking the log reclaims one. That needs reserve + 2
  // spare blocks per die, which also lets the dies' caps hold every user page.
  if (spare < uint64_t(reserve_) + 2)
    throw FtlConfigError("ftl.op", "circular FTL: " + std::to_string(spare) +
                                       " spare blocks per die, it needs ftl.gc_threshold + 2 = " +
                                       std::to_string(reserve_ + 2));
  // The default target (4) is cut to what a small drive has; a value the
  // user gave is held to it.
  if (idle_free_ > spare && !p.options.set_by_user("ftl.circular_idle_free")) idle_free_ = uint32_t(spare);
  if (idle_free_ > spare)
    throw FtlConfigError("ftl.circular_idle_free", "above the " + std::to_string(spare) +
                                                       " spare blocks per die (a full drive could never reach it)");
  if (geo_.pages() >= kNone) throw FtlConfigError("nand.blocks_per_plane", "circular FTL: more than 2^32 flash pages");
  die_cap_ = (uint64_t(geo_.blocks_per_die()) - reserve_ - 2) * geo_.pages_per_block;
  l2p_.assign(user_pages_, kNone);
  p2l_.assign(geo_.pages(), kNone);
  valid_.assign(geo_.blocks(), 0);
  die_valid_.assign(geo_.dies(), 0);
  dies_.resize(geo_.dies());
  for (uint32_t d = 0; d < geo_.dies(); ++d)
    for (uint32_t b = 0; b < geo_.blocks_per_die(); ++b) dies_[d].free.push_back(geo_.block(DieId(d), b).v);
}

void CircularFtl::read(Lpn lpn, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup;
  work.map_reads += 1;
  if (l2p_[lpn.v] == kNone) {
    ++stats_.unmapped_reads;  // answered with zeros, no flash access
    return;
  }
  work.add({FlashOp::Kind::Read, Ppn(l2p_[lpn.v])});
}

void CircularFtl::write(Lpn lpn, uint64_t version, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup + params_.cycles.map_update;
  work.map_reads += 1;
  work.map_writes += 1;
  if (l2p_[lpn.v] != kNone) invalidate(l2p_[lpn.v]);
  // Round-robin over the dies (channel first), skipping full ones.
  uint32_t die = die_cursor_;
  for (uint32_t tries = 0; die_valid_[die] >= die_cap_; ++tries, die = (die + 1) % geo_.dies())
    if (tries == geo_.dies()) throw std::logic_error("circular FTL: no die can take a write");
  die_cursor_ = (die + 1) % geo_.dies();

  const uint64_t runs_before = stats_.gc_runs;
  const Ppn ppn = append(die, true, work);
  media_.program(geo_.block_of(ppn), geo_.page_in_block(ppn), {lpn.v, version});
  p2l_[ppn.v] = lpn.v;
  l2p_[lpn.v] = ppn.v;
  ++valid_[geo_.block_of(ppn).v];
  ++die_valid_[die];
  ++stats_.host_pages_written;
  ++stats_.flash_pages_written;
  // The host page waits for the GC its write set off.
  work.add({FlashOp::Kind::Program, ppn, false, -1, stats_.gc_runs != runs_before});
}

void CircularFtl::trim(Lpn lpn, FtlWork& work) {
  work.cpu_cycles += params_.cycles.lookup + params_.cycles.map_update;
  work.map_reads += 1;
  if (l2p_[lpn.v] == kNone) return;
  work.map_writes += 1;
  invalidate(l2p_[lpn.v]);
  l2p_[lpn.v] = kNone;
  ++stats_.trimmed_pages;
}

bool CircularFtl::background(FtlWork& work) {
  // One tail block per slice, on the next die that is short of free blocks
  // and whose tail block would free something.
  for (uint32_t i = 0; i < geo_.dies(); ++i) {
    const uint32_t die = (idle_cursor_ + i) % geo_.dies();
    const Die& d = dies_[die];
    if (d.free.size() >= idle_free_ || d.log.empty() || valid_[d.log.front()] == geo_.pages_per_block) continue;
    idle_cursor_ = (die + 1) % geo_.dies();
    collect_tail(die, work);
    ++idle_victims_;
    return true;
  }
  return false;
}

std::vector<FtlStat> CircularFtl::extra_stats() const {
  return {{"fifo_full_victims", double(full_victims_), "count",
           "GC victims with no invalid page: copied whole, freeing nothing (FIFO's price over greedy)"},
          {"idle_gc_runs", double(idle_victims_), "count", "victims reclaimed in idle time (ftl.circular_idle_free)"}};
}

Ppn CircularFtl::append(uint32_t die, bool host, FtlWork& work) {
  Die& d = dies_[die];
  if (d.head == kNone || d.next_page == geo_.pages_per_block) {
    if (d.head != kNone) d.log.push_back(d.head);
    d.head = kNone;
    // Each victim opens at most one block for its copies and frees its own,
    // so free blocks never drop while GC runs and reclaiming a victim with
    // an invalid page eventually frees a block. The bound only catches a bug.
    const uint64_t bound = uint64_t(geo_.blocks_per_die()) * (geo_.pages_per_block + 1);
    for (uint64_t n = 0; host && d.free.size() <= reserve_; ++n) {
      if (n == bound) throw std::logic_error("circular FTL: die " + std::to_string(die) + " reclaims nothing");
      collect_tail(die, work);
    }
    // The copies may have opened a head with room left: the host uses it.
    if (d.head == kNone || d.next_page == geo_.pages_per_block) {
      if (d.head != kNone) d.log.push_back(d.head);
      if (d.free.empty()) throw std::logic_error("circular FTL: die " + std::to_string(die) + " has no free block");
      d.head = d.free.front();
      d.free.pop_front();
      d.next_page = 0;
    }
  }
  return Ppn(d.head * geo_.pages_per_block + d.next_page++);
}

void CircularFtl::collect_tail(uint32_t die, FtlWork& work) {
  Die& d = dies_[die];
  if (d.log.empty()) throw std::logic_error("circular FTL: die " + std::to_string(die) + " has no closed block");
  const uint32_t victim = d.log.front();
  d.log.pop_front();
  if (valid_[victim] == geo_.pages_per_block) ++full_victims_;
  work.cpu_cycles += params_.cycles.gc_victim;
  const uint32_t first = victim * geo_.pages_per_block;
  for (uint32_t i = 0; i < geo_.pages_per_block; ++i) {
    const uint32_t lpn = p2l_[first + i];
    if (lpn == kNone) continue;
    const Ppn dst = append(die, false, work);
    media_.program(geo_.block_of(dst), geo_.page_in_block(dst), media_.read(BlockId(victim), i));
    p2l_[dst.v] = lpn;
    l2p_[lpn] = dst.v;
    ++valid_[geo_.block_of(dst).v];
    p2l_[first + i] = kNone;
    --valid_[victim];
    // A copy is a read, then a program that waits for it.
    const int32_t read_index = int32_t(work.ops.size());
    work.add({FlashOp::Kind::Read, Ppn(first + i), true});
    work.add({FlashOp::Kind::Program, dst, true, read_index});
    work.cpu_cycles += params_.cycles.gc_page;
    work.map_writes += 1;
    ++stats_.gc_pages_moved;
    ++stats_.flash_pages_written;
  }
  // The erase waits for every read of the victim (and everything before it).
  media_.erase(BlockId(victim));
  work.add({FlashOp::Kind::Erase, Ppn(first), true, -1, true});
  d.free.push_back(victim);
  ++stats_.gc_runs;
}

void CircularFtl::invalidate(uint32_t ppn) {
  p2l_[ppn] = kNone;
  const uint32_t block = ppn / geo_.pages_per_block;
  --valid_[block];
  --die_valid_[block / geo_.blocks_per_die()];
}

void CircularFtl::check_consistency() const {
  auto fail = [](const std::string& what) { throw std::logic_error("circular FTL inconsistent: " + what); };
  // Mapping against reverse map and the flash.
  std::vector<uint32_t> mapped(geo_.blocks(), 0);
  for (uint64_t l = 0; l < user_pages_; ++l) {
    const uint32_t p = l2p_[l];
    if (p == kNone) continue;
    if (p >= p2l_.size() || p2l_[p] != l) fail("l2p[" + std::to_string(l) + "] -> " + std::to_string(p) + ", p2l disagrees");
    if (!media_.is_programmed(Ppn(p))) fail("LPN " + std::to_string(l) + " maps to an erased page");
    ++mapped[p / geo_.pages_per_block];
  }
  uint64_t reverse = 0;
  for (uint32_t p : p2l_) reverse += p != kNone;
  uint64_t forward = 0;
  for (uint32_t m : mapped) forward += m;
  if (reverse != forward) fail(std::to_string(reverse) + " pages in p2l, " + std::to_string(forward) + " mapped");
  for (uint32_t b = 0; b < geo_.blocks(); ++b)
    if (mapped[b] != valid_[b]) fail("block " + std::to_string(b) + " counts " + std::to_string(valid_[b]) +
                                     " valid pages, " + std::to_string(mapped[b]) + " map to it");
  // Every block is exactly one of: free (erased), in the log (full), the head.
  std::vector<uint8_t> seen(geo_.blocks(), 0);
  for (uint32_t die = 0; die < geo_.dies(); ++die) {
    const Die& d = dies_[die];
    const std::string at = "die " + std::to_string(die) + ": ";
    uint64_t valid = 0;
    auto visit = [&](uint32_t b, uint32_t programmed, const char* as) {
      if (b >= geo_.blocks() || geo_.die_of(BlockId(b)).v != die || seen[b]++)
        fail(at + "block " + std::to_string(b) + " listed twice or on the wrong die");
      const uint32_t first = b * geo_.pages_per_block;
      if ((programmed > 0 && !media_.is_programmed(Ppn(first + programmed - 1))) ||
          (programmed < geo_.pages_per_block && media_.is_programmed(Ppn(first + programmed))))
        fail(at + std::string(as) + " block " + std::to_string(b) + " should have " + std::to_string(programmed) +
             " programmed pages");
      valid += valid_[b];
    };
    for (uint32_t b : d.free) visit(b, 0, "free");
    for (uint32_t b : d.log) visit(b, geo_.pages_per_block, "closed");
    if (d.head != kNone) visit(d.head, d.next_page, "head");
    if (valid != die_valid_[die] || valid > die_cap_)
      fail(at + std::to_string(die_valid_[die]) + " valid pages counted, " + std::to_string(valid) +
           " in its blocks, cap " + std::to_string(die_cap_));
    if (d.free.size() < reserve_) fail(at + "fewer free blocks than the GC reserve");
  }
  for (uint32_t b = 0; b < geo_.blocks(); ++b)
    if (!seen[b]) fail("block " + std::to_string(b) + " is neither free, closed nor the head");
}

}  // namespace

// The library's entry points: the API version it was built for, and the
// registration (one FTL here; a library may register several).
SSDSIM_FTL_PLUGIN(registry) {
  registry.add("circular", "page mapping, each die a circular log, FIFO GC (example plug-in)",
               [](const FtlParams& p, FlashMedia& m) { return std::make_unique<CircularFtl>(p, m); },
               {{"ftl.circular_idle_free", "4", "count",
                 "idle time: reclaim the oldest block of a die while it has fewer free blocks than this (0: no idle GC; "
                 "at most a die's spare blocks, the default cut to them; needs ftl.idle_after)",
                 true}},
               &CircularFtl::table_bytes);
}
