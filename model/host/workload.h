#pragma once
// A synthetic workload with fio's option names and meaning: rw (read, write,
// randread, randwrite, randrw, rw/readwrite), bs, rwmixread,
// percentage_random, size, offset, number_ios; runtime is applied by the host.
// Random offsets are drawn uniformly over [offset, offset + size) in bs steps
// with replacement (fio's `norandommap`); a non-random IO continues from the
// previous one and wraps at the end of the span.

#include <array>
#include <functional>
#include <string>

#include "model/sim/config.h"
#include "model/host/io_source.h"
#include "model/sim/random.h"

namespace ssd {

class SyntheticWorkload : public IoSource {
 public:
  // `span` is the resolved LBA span in bytes (size, or the user capacity).
  SyntheticWorkload(const WorkloadConfig& cfg, uint64_t span, uint64_t seed);
  bool next(HostRequest& req, const sc_core::sc_time& now) override;
  std::string describe() const override;
  // Tell `f` of each request kLookahead requests before next() returns it
  // (the requests are drawn that much ahead, in the same order: the same
  // sequence), so the drive can prefetch what serving it will read.
  static constexpr uint32_t kLookahead = 8;
  void on_lookahead(std::function<void(const HostRequest&)> f) { lookahead_ = std::move(f); }

 private:
  bool draw(HostRequest& req);

  WorkloadConfig cfg_;
  uint64_t span_;
  uint64_t blocks_;       // bs-sized blocks in the span
  uint32_t read_pct_;     // 100, 0 or rwmixread
  uint32_t random_pct_;   // 0 for sequential kinds
  uint64_t issued_ = 0;
  uint64_t seq_block_ = 0;
  Random rng_;
  std::function<void(const HostRequest&)> lookahead_;
  std::array<HostRequest, kLookahead> ahead_;  // drawn, not yet returned: a ring
  uint32_t ahead_first_ = 0, ahead_count_ = 0;
  bool drawn_all_ = false;
};

}  // namespace ssd
