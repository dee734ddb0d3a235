#include "model/host/workload.h"

#include <stdexcept>

namespace ssd {

SyntheticWorkload::SyntheticWorkload(const WorkloadConfig& cfg, uint64_t span, uint64_t seed)
    : cfg_(cfg), span_(span), blocks_(span / cfg.bs), rng_(seed) {
  const std::string& rw = cfg.rw;
  if (rw == "read" || rw == "randread") read_pct_ = 100;
  else if (rw == "write" || rw == "randwrite") read_pct_ = 0;
  else if (rw == "randrw" || rw == "rw" || rw == "readwrite") read_pct_ = cfg.rwmixread;
  else throw std::invalid_argument("workload.rw: unknown pattern '" + rw + "'");
  random_pct_ = rw.rfind("rand", 0) == 0 ? cfg.percentage_random : 0;
  if (blocks_ == 0) throw std::invalid_argument("workload.size: span smaller than workload.bs");
}

bool SyntheticWorkload::next(HostRequest& req, const sc_core::sc_time&) {
  if (!lookahead_) return draw(req);
  // Keep kLookahead requests drawn ahead of the one returned.
  while (!drawn_all_ && ahead_count_ < kLookahead) {
    HostRequest& r = ahead_[(ahead_first_ + ahead_count_) % kLookahead];
    if (!draw(r)) {
      drawn_all_ = true;
      break;
    }
    ++ahead_count_;
    lookahead_(r);
  }
  if (ahead_count_ == 0) return false;
  req = ahead_[ahead_first_];
  ahead_first_ = (ahead_first_ + 1) % kLookahead;
  --ahead_count_;
  return true;
}

bool SyntheticWorkload::draw(HostRequest& req) {
  if (cfg_.number_ios && issued_ >= cfg_.number_ios) return false;
  req.id = issued_++;
  req.op = (read_pct_ == 100 || (read_pct_ > 0 && rng_.percent() < read_pct_)) ? ssdtlm::HostOp::Read
                                                                                 : ssdtlm::HostOp::Write;
  uint64_t block;
  if (random_pct_ == 100 || (random_pct_ > 0 && rng_.percent() < random_pct_)) {
    block = rng_.below(blocks_);
  } else {
    block = seq_block_;
  }
  seq_block_ = (block + 1) % blocks_;
  req.offset = cfg_.offset + block * cfg_.bs;
  req.bytes = cfg_.bs;
  req.timed = false;
  return true;
}

std::string SyntheticWorkload::describe() const {
  return "rw=" + cfg_.rw + " bs=" + std::to_string(cfg_.bs) + " iodepth=" + std::to_string(cfg_.iodepth) +
         " offset=" + std::to_string(cfg_.offset) + " span=" + std::to_string(span_) + " bytes";
}

}  // namespace ssd
