// FAST (fully-associative sector translation, Lee et al. 2007): per die one
// sequential log block for writes that start a logical block at offset 0
// and continue it in order, and random log blocks shared by all the die's
// logical blocks. The write policy and the "fast" registration; the log and
// merge machinery is HybridFtl's.
#include "model/ftl/hybrid/hybrid_ftl.h"

namespace ssd::ftl {

namespace {
FtlRegistration fast_registration(
    "fast", "hybrid log-block FTL (FAST): block-mapped data, a sequential log and shared random log blocks",
    [](const FtlParams& p, FlashMedia& m) { return std::make_unique<HybridFtl>(p, m, HybridFtl::Scheme::Fast); },
    HybridFtl::options(), [](const FtlParams& p) { return HybridFtl::table_bytes(p, HybridFtl::Scheme::Fast); });
}

void HybridFtl::write_fast(uint32_t lpn, uint64_t version, FtlWork& work) {
  const uint32_t lb = lpn / ppb_, off = lpn % ppb_, die = die_of_lb(lb);
  Die& d = dies_[die];
  bool merged = false;
  if (off == 0) {
    // A new sequential run: the previous one is switched (or completed by a
    // partial merge), and this logical block takes the sequential log.
    if (d.seq != kNone) {
      merge_log(d.seq, work);
      merged = true;
    }
    d.seq = open_log(die, lb, true, work, merged);
    return append(d.seq, lpn, version, work, merged);
  }
  if (d.seq != kNone && logs_[d.seq].owner == lb && logs_[d.seq].used == off)
    return append(d.seq, lpn, version, work, merged);  // continues the run
  if (d.cur == kNone || logs_[d.cur].used == ppb_) d.cur = open_log(die, kNone, false, work, merged);
  append(d.cur, lpn, version, work, merged);
}

}  // namespace ssd::ftl
