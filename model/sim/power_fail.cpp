#include "model/sim/power_fail.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "model/sim/options.h"
#include "model/sim/text.h"

namespace ssd {

PowerFail::PowerFail(sc_core::sc_time at, sc_core::sc_time holdup, std::vector<uint64_t> baseline,
                     uint32_t page_size)
    : at_(at), holdup_(holdup), known_(at != sc_core::SC_ZERO_TIME), page_size_(page_size),
      durable_(std::move(baseline)), acked_(durable_.size(), 0) {}

void PowerFail::cut(const sc_core::sc_time& at) {
  at_ = at;
  known_ = true;
  // The run may have gone on past the cut before the host reached the
  // record: what came after it is left out, as if the power had gone then.
  for (const Program& p : programs_seen_) program(p);
  for (const Completion& c : completions_seen_) complete(c);
  programs_seen_ = {};
  completions_seen_ = {};
}

void PowerFail::programmed(uint64_t lpn, uint64_t tag, const sc_core::sc_time& done) {
  const Program p{lpn, tag, sc_core::sc_time_stamp(), done};
  if (known_) program(p);
  else programs_seen_.push_back(p);
}

void PowerFail::program(const Program& p) {
  if (p.issued > at_) return;  // after the cut: never issued
  // Not host data: a page of the FTL's own, numbered after the user's (a
  // DFTL translation page). (It was written past the end of the table.)
  if (p.lpn >= durable_.size()) return;
  ++programs_;
  // Tags grow with issue order: the newest durable version is the largest.
  if (p.done <= at_ + holdup_) durable_[p.lpn] = std::max(durable_[p.lpn], p.tag);
  else ++late_programs_;
}

void PowerFail::completed(const IoCompletion& c, uint64_t tag) {
  if (c.request.op != ssdtlm::HostOp::Write) return;
  const Completion w{c.request.offset, c.request.bytes, tag, c.completion};
  if (known_) complete(w);
  else completions_seen_.push_back(w);
}

void PowerFail::complete(const Completion& c) {
  if (c.at > at_) return;
  ++acked_writes_;
  // A write touching part of a page rewrites all of it (read-modify-write).
  const uint64_t first = c.offset / page_size_, last = (c.offset + c.bytes - 1) / page_size_;
  for (uint64_t l = first; l <= last && l < acked_.size(); ++l) acked_[l] = std::max(acked_[l], c.tag);
}

void PowerFail::analyse(const std::string& lost_csv, bool volatile_cache) {
  analysed_ = true;  // (a failed check throws: no report is written)
  FILE* csv = nullptr;
  if (!lost_csv.empty()) {
    csv = std::fopen(lost_csv.c_str(), "w");
    if (!csv) throw OptionError(lost_csv + ": cannot open for writing (option 'powerfail.lost')");
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
  if (csv && !text::close_written(csv)) throw OptionError(lost_csv + ": write failed (option 'powerfail.lost')");
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
          {"check", analysed_ ? "passed" : "not run: the run was interrupted before the cut"}};
}

}  // namespace ssd
