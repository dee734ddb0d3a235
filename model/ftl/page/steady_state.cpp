// The page FTL's steady state under uniform random writes, built directly
// (the `steady` state phase, docs/states.md) rather than by writing the
// drive full and overwriting it, which costs a random map access per host
// write and per GC move: about a minute per TiB.
//
// The model is the fluid (mean-field) one of greedy GC under uniform random
// writes (Hu et al., "Write amplification analysis in flash-based solid
// state drives", SYSTOR 2009; Desnoyers, "Analytic models of SSD write
// performance", ACM TOS 2014): every valid page is overwritten with the same
// probability 1/U per host write (U user pages), so a block closed `a` host
// writes ago still holds ppb * exp(-a / U) valid pages, and blocks close at a
// constant rate, so their ages are evenly spaced. Greedy takes the oldest
// (then emptiest) block. On each die the closed blocks' valid counts are
// therefore ppb * exp(-k x), k = 0 (youngest) .. C-1, with x set so that
// they add up to the die's share of the user pages. Within a block the
// valid pages are a uniform random subset (overwrites hit pages at random),
// and the logical pages are dealt to the valid slots by a random permutation
// (random writes scatter them over the dies). The free pool is at GC's
// watermark, no block is open, no victim is in progress, wear is not
// modelled (erase counts stay 0). How well this reproduces the functional
// state is measured in docs/states.md.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "model/ftl/page/page_ftl.h"
#include "model/sim/random.h"

namespace ssd::ftl {

namespace {

// A pseudo-random permutation of [0, n) without a table (the table would
// double the memory of a terabyte drive's preconditioning): a 4-round
// Feistel network over the smallest even number of bits covering n, cycle
// walking until the value falls inside [0, n) (fewer than 4 steps on average).
class Permutation {
 public:
  Permutation(uint64_t n, uint64_t seed) : n_(n) {
    while ((uint64_t(1) << (2 * half_)) < n) ++half_;
    mask_ = (uint64_t(1) << half_) - 1;
    Random rng(seed ^ 0x5354454144595354ull);
    for (auto& k : keys_) k = rng.next();
  }
  uint64_t operator()(uint64_t i) const {
    do i = round_trip(i);
    while (i >= n_);
    return i;
  }

 private:
  uint64_t round_trip(uint64_t v) const {
    uint64_t l = v >> half_, r = v & mask_;
    for (uint64_t k : keys_) {
      uint64_t f = (r ^ k) * 0x9e3779b97f4a7c15ull;
      f ^= f >> 29;
      const uint64_t t = r;
      r = (l ^ f) & mask_;
      l = t;
    }
    return (l << half_) | r;
  }
  uint64_t n_, mask_ = 0;
  int half_ = 1;
  uint64_t keys_[4];
};

}  // namespace

bool PageFtl::steady_state(uint64_t seed, const std::function<uint64_t(uint64_t)>& version) {
  if (picker_.policy() != GcPolicy::Greedy)
    throw FtlConfigError("ftl.gc.policy", "the steady state phase models greedy GC only, not " +
                                              std::string(gc_policy_name(picker_.policy())));
  for (uint32_t b = 0; b < geo_.blocks(); ++b)
    if (blocks_[b].state != BlockState::Free || media_.is_programmed(geo_.first_page(BlockId(b))))
      throw std::logic_error("page FTL: steady state asked of a drive that is not empty");
  const uint32_t ppb = geo_.pages_per_block, blocks = geo_.blocks_per_die(), dies = geo_.dies();
  // Free blocks: the watermark plus the one the next host write opens.
  const uint32_t free_blocks = std::max<uint32_t>(params_.gc_threshold + 1, 2);
  const uint32_t closed = blocks - free_blocks;  // the spare rule keeps this above die_cap_ / ppb
  const Permutation lpn_of(user_pages_, seed);
  Random rng(seed ^ 0x7374656164797374ull);
  std::vector<uint16_t> valid(closed);
  uint64_t slot = 0;  // valid slots dealt so far, drive-wide
  for (uint32_t die = 0; die < dies; ++die) {
    const uint64_t share = user_pages_ / dies + (die < user_pages_ % dies);
    // x such that sum_k ppb exp(-k x) = share (the sum falls as x grows);
    // a geometric series: ppb (1 - e^-Cx) / (1 - e^-x).
    const auto sum = [&](double x) {
      return x <= 0 ? double(ppb) * closed : ppb * -std::expm1(-double(closed) * x) / -std::expm1(-x);
    };
    double lo = 0, hi = 1;
    while (sum(hi) > double(share) && hi < 1e3) hi *= 2;
    for (int i = 0; i < 100; ++i) ((sum((lo + hi) / 2) > double(share)) ? lo : hi) = (lo + hi) / 2;
    const double x = lo, scale = double(share) / sum(x);  // sum(lo) > share: scale < 1, no block over ppb
    double running = 0;
    uint64_t placed = 0;
    for (uint32_t k = 0; k < closed; ++k) {
      running += scale * ppb * std::exp(-double(k) * x);
      const uint64_t upto = k + 1 == closed ? share : std::min<uint64_t>(share, uint64_t(std::llround(running)));
      valid[k] = uint16_t(std::min<uint64_t>(ppb, upto - placed));
      placed += valid[k];
    }
    if (placed != share) throw std::logic_error("page FTL: steady state placed " + std::to_string(placed) + " of " +
                                                std::to_string(share) + " pages on die " + std::to_string(die));
    // Oldest first, so closing order (closed_at_) follows age; block k of the die holds age rank closed-1-k.
    Die& d = dies_[die];
    d.free_blocks.clear();
    for (uint32_t j = 0; j < closed; ++j) {
      const uint32_t block = geo_.block(DieId(die), j).v, want = valid[closed - 1 - j];
      uint32_t left = want;
      for (uint32_t page = 0; page < ppb; ++page) {
        // Selection sampling (Knuth's algorithm S): each page valid with
        // probability left / pages left, exactly `want` of them.
        const bool keep = rng.below(ppb - page) < left;
        const uint32_t ppn = block * ppb + page;
        if (keep) {
          const uint32_t lpn = uint32_t(lpn_of(slot++));
          media_.program(BlockId(block), page, {lpn, version(lpn)});
          p2l_[ppn] = lpn;  // (l2p_ below)
          --left;
        } else {
          media_.program(BlockId(block), page, {});  // stale: overwritten since
        }
      }
      blocks_[block].valid = uint16_t(want);
      seq_ += ppb;
      close_block(block);
    }
    die_valid_[die] = share;
    for (uint32_t j = closed; j < blocks; ++j) d.free_blocks.push_back(geo_.block(DieId(die), j).v);
  }
  // The mapping table, from the reverse one. Written as the slots are dealt,
  // each entry was a store to a random place of a table of 4 bytes per user
  // page, and once the tables outgrow the TLB's reach (a few GiB in 2 MiB
  // pages) nearly every one walks the page tables (on a 2-core AMD EPYC VM):
  // 1 TiB of flash took 11 s, 2 TiB 62 s, 4 TiB 129 s. Instead, one
  // sequential pass over p2l_ per window of LPNs whose entries lie within
  // 1 GiB: the stores stay random, but inside the reach (6.0, 23 and 28 s;
  // 256 MiB windows gave 8.2, 29 and 50 s, their passes over p2l_ too many).
  const uint64_t pages = geo_.pages();
  for (uint64_t lo = 0; lo < user_pages_; lo += map_fill_window_) {
    const uint32_t width = uint32_t(std::min(map_fill_window_, user_pages_ - lo));
    uint32_t* const window = l2p_.data() + lo;
    for (uint64_t ppn = 0; ppn < pages; ++ppn) {
      const uint32_t at = p2l_[ppn] - uint32_t(lo);  // (kNone, a stale page, falls outside every window)
      if (at < width) window[at] = uint32_t(ppn);
    }
  }
  rebuild_indexes();  // (the free lists were set whole)
  return true;
}

}  // namespace ssd::ftl
