#include "model/sim/power_fail.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace ssd {

PowerFail::PowerFail(sc_core::sc_time at, sc_core::sc_time holdup, std::vector<uint64_t> baseline,
                     uint32_t page_size)
    : at_(at), holdup_(holdup), page_size_(page_size), durable_(std::move(baseline)), acked_(durable_.size(), 0) {}

void PowerFail::programmed(uint64_t lpn, uint64_t tag, const sc_core::sc_time& done) {
  ++programs_;
  // Tags grow with issue order: the newest durable version is the largest.
  if (done <= at_ + holdup_) durable_[lpn] = std::max(durable_[lpn], tag);
  else ++late_programs_;
}

void PowerFail::completed(const IoCompletion& c, uint64_t tag) {
  if (c.request.op != ssdtlm::HostOp::Write || c.completion > at_) return;
  ++acked_writes_;
  // A write touching part of a page rewrites all of it (read-modify-write).
  const uint64_t first = c.request.offset / page_size_, last = (c.request.offset + c.request.bytes - 1) / page_size_;
  for (uint64_t l = first; l <= last && l < acked_.size(); ++l) acked_[l] = std::max(acked_[l], tag);
}

void PowerFail::analyse(const std::string& lost_csv, bool volatile_cache) {
  FILE* csv = nullptr;
  if (!lost_csv.empty()) {
    csv = std::fopen(lost_csv.c_str(), "w");
    if (!csv) throw std::runtime_error("cannot write " + lost_csv);
    std::fprintf(csv, "offset,bytes,pages\n");
  }
  uint64_t run_start = 0, run_len = 0;
  const auto flush_run = [&]() {
    if (!run_len) return;
    ++lost_ranges_;
    if (csv)
      std::fprintf(csv, "%llu,%llu,%llu\n", static_cast<unsigned long long>(run_start * page_size_),
                   static_cast<unsigned long long>(run_len * page_size_), static_cast<unsigned long long>(run_len));
    run_len = 0;
  };
  for (uint64_t l = 0; l < acked_.size(); ++l) {
    const uint64_t acked = acked_[l], recovered = durable_[l];
    const bool lost = acked != 0 && recovered < acked;
    if (acked != 0 && recovered > acked) ++landed_pages_;  // a write in flight at the cut made it
    if (lost) {
      ++lost_pages_;
      if (run_len && run_start + run_len == l) ++run_len;
      else flush_run(), run_start = l, run_len = 1;
    }
    // The check: a drive without a volatile write cache acknowledges a
    // write only once it is on flash, so it can lose nothing acknowledged.
    if (lost && !volatile_cache)
      throw ContentMismatch("power fail: LPN " + std::to_string(l) + " was acknowledged with version " +
                            std::to_string(acked) + " but only version " + std::to_string(recovered) +
                            " is on flash, on a drive without a volatile write cache");
  }
  flush_run();
  if (csv && std::fclose(csv) != 0) throw std::runtime_error("cannot write " + lost_csv);
}

nlohmann::json PowerFail::report() const {
  return {{"at_ns", uint64_t(at_.to_seconds() * 1e9 + 0.5)},
          {"holdup_ns", uint64_t(holdup_.to_seconds() * 1e9 + 0.5)},
          {"acknowledged_writes", acked_writes_},
          {"host_programs", programs_},
          {"programs_not_durable", late_programs_},
          {"lost_pages", lost_pages_},
          {"lost_bytes", lost_pages_ * page_size_},
          {"lost_ranges", lost_ranges_},
          {"pages_newer_than_acknowledged", landed_pages_},
          {"check", "passed"}};
}

}  // namespace ssd
