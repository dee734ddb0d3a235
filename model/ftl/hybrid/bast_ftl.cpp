// BAST (block-associative sector translation, Kim et al. 2002): each log
// block belongs to one logical block. The write policy and the "bast"
// registration; the log and merge machinery is HybridFtl's.
#include "model/ftl/hybrid/hybrid_ftl.h"

namespace ssd::ftl {

namespace {
FtlRegistration bast_registration(
    "bast", "hybrid log-block FTL (BAST): block-mapped data, one page-mapped log block per updated logical block",
    [](const FtlParams& p, FlashMedia& m) { return std::make_unique<HybridFtl>(p, m, HybridFtl::Scheme::Bast); },
    HybridFtl::options(), [](const FtlParams& p) { return HybridFtl::table_bytes(p, HybridFtl::Scheme::Bast); });
}

void HybridFtl::write_bast(uint32_t lpn, uint64_t version, FtlWork& work) {
  const uint32_t lb = lpn / ppb_;
  bool merged = false;
  uint32_t slot = log_of_[lb];
  if (slot != kNone && logs_[slot].used == ppb_) {  // its log is full: merge it first
    merge_log(slot, work);
    slot = kNone;
    merged = true;
  }
  if (slot == kNone) slot = log_of_[lb] = open_log(die_of_lb(lb), lb, false, work, merged);
  append(slot, lpn, version, work, merged);
}

}  // namespace ssd::ftl
