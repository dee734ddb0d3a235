#include "model/host/fio_workload.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ssd {

namespace {
// A 64-bit mixer (splitmix64's finaliser): scatters popularity ranks over the span.
uint64_t scatter(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
}  // namespace

FioWorkload::FioWorkload(const FioJob& job, uint64_t capacity, uint64_t seed)
    : job_(job), span_(job.size ? job.size : capacity - job.offset), align_(job.min_bs()), rng_(seed) {
  units_ = span_ / align_;
  if (units_ == 0) throw std::invalid_argument("fio job '" + job.name + "': span smaller than the block size");
  byte_limit_ = job.time_based ? 0 : (job.io_size ? job.io_size : span_);
  end_ = job.runtime == sc_core::SC_ZERO_TIME ? sc_core::SC_ZERO_TIME : job.ramp_time + job.runtime;
  const std::string& rw = job.rw;
  if (rw == "read" || rw == "randread") read_pct_ = 100;
  else if (rw == "write" || rw == "randwrite") read_pct_ = 0;
  else if (rw == "trim" || rw == "randtrim") read_pct_ = 0, trim_ = 1;
  else read_pct_ = job.rwmixread;  // rw, readwrite, randrw
  random_pct_ = rw.rfind("rand", 0) == 0 ? job.percentage_random : 0;
  if (job.distribution == FioDistribution::Zipf) init_zipf();
}

double FioWorkload::uniform() { return double(rng_.next() >> 11) * 0x1.0p-53; }

// Zipf ranks by Gray et al.'s method ("Quickly generating billion-record
// synthetic databases", SIGMOD 1994). The normalising sum zeta(n, theta) is
// exact over the first million terms; the rest is its integral, which is
// within a fraction of a term of the sum.
void FioWorkload::init_zipf() {
  const double theta = job_.distribution_param, n = double(units_);
  const uint64_t exact = std::min<uint64_t>(units_, 1000000);
  double z = 0;
  for (uint64_t i = 1; i <= exact; ++i) z += std::pow(double(i), -theta);
  if (units_ > exact)
    z += (std::pow(n + 0.5, 1 - theta) - std::pow(double(exact) + 0.5, 1 - theta)) / (1 - theta);
  zipf_zetan_ = z;
  zipf_alpha_ = 1.0 / (1.0 - theta);
  const double zeta2 = 1.0 + std::pow(0.5, theta);
  zipf_eta_ = (1.0 - std::pow(2.0 / n, 1.0 - theta)) / (1.0 - zeta2 / z);
}

uint64_t FioWorkload::random_unit() {
  const double p = job_.distribution_param;
  switch (job_.distribution) {
    case FioDistribution::Random:
      return rng_.below(units_);
    case FioDistribution::Zipf: {
      const double u = uniform(), uz = u * zipf_zetan_;
      uint64_t rank;
      if (uz < 1.0) rank = 0;
      else if (uz < 1.0 + std::pow(0.5, p)) rank = 1;
      else rank = uint64_t(double(units_) * std::pow(zipf_eta_ * u - zipf_eta_ + 1.0, zipf_alpha_));
      return units_ == 1 ? 0 : scatter(std::min(rank, units_ - 1)) % units_;
    }
    case FioDistribution::Pareto: {
      // P(rank <= x * n) = x^(ln(1-h)/ln h): with h = 0.2, 20 % of the blocks take 80 % of the IOs.
      const uint64_t rank = uint64_t(double(units_ - 1) * std::pow(uniform(), std::log(p) / std::log(1.0 - p)));
      return scatter(rank) % units_;
    }
    case FioDistribution::Normal:
      for (;;) {  // Box-Muller; draws outside the span are drawn again
        const double u1 = 1.0 - uniform(), u2 = uniform();
        const double g = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
        const double x = double(units_) / 2.0 + g * p / 100.0 * double(units_);
        if (x >= 0 && x < double(units_)) return uint64_t(x);
      }
  }
  return 0;
}

bool FioWorkload::next(HostRequest& req, const sc_core::sc_time& now) {
  if (end_ != sc_core::SC_ZERO_TIME && now >= end_) return false;
  if (flush_due_) {  // fsync: the FLUSH follows the write that made it due
    flush_due_ = false;
    req = HostRequest{};
    req.id = issued_ + flushes_++;
    req.op = ssdtlm::HostOp::Flush;
    return true;
  }
  if (job_.number_ios && issued_ >= job_.number_ios) return false;
  if (byte_limit_ && bytes_ >= byte_limit_) return false;

  sc_core::sc_time arrival = now;
  bool timed = false;
  if (job_.rate_iops > 0) {
    // Open loop: IO k arrives at k / rate whenever a slot takes it; one
    // taken late (every slot busy, or a FLUSH holding the queue) has waited
    // in the host since then (slat), rather than shifting later arrivals.
    arrival = sc_core::sc_time(double(issued_) / job_.rate_iops, sc_core::SC_SEC);
    timed = true;
  }
  if (job_.thinktime != sc_core::SC_ZERO_TIME && issued_ >= job_.iodepth) {
    arrival = std::max(arrival, now + job_.thinktime);
    timed = true;
  }
  if (timed && end_ != sc_core::SC_ZERO_TIME && arrival >= end_) return false;

  req = HostRequest{};
  req.id = issued_ + flushes_;
  ++issued_;
  req.op = trim_                                                                      ? ssdtlm::HostOp::Trim
           : (read_pct_ == 100 || (read_pct_ > 0 && rng_.percent() < read_pct_)) ? ssdtlm::HostOp::Read
                                                                                  : ssdtlm::HostOp::Write;
  uint64_t bs = job_.bs[0].bytes;
  if (job_.bs.size() > 1) {
    uint32_t pick = rng_.percent(), acc = 0;
    for (const FioBlockSize& b : job_.bs)
      if (pick < (acc += b.percent)) {
        bs = b.bytes;
        break;
      }
  }
  uint64_t rel;
  if (random_pct_ == 100 || (random_pct_ > 0 && rng_.percent() < random_pct_)) {
    rel = random_unit() * align_;
    if (rel + bs > span_) rel = (span_ - bs) / 512 * 512;
  } else {
    rel = seq_ + bs > span_ ? 0 : seq_;
  }
  seq_ = rel + bs;
  req.offset = job_.offset + rel;
  req.bytes = bs;
  req.timed = timed;
  req.arrival = arrival;
  bytes_ += bs;
  if (req.op == ssdtlm::HostOp::Write && job_.fsync && ++writes_ % job_.fsync == 0) flush_due_ = true;
  return true;
}

std::string FioWorkload::describe() const {
  std::string bs;
  for (const FioBlockSize& b : job_.bs)
    bs += (bs.empty() ? "" : ":") + std::to_string(b.bytes) + (job_.bs.size() > 1 ? "/" + std::to_string(b.percent) : "");
  return "job " + job_.name + (job_.numjobs > 1 ? "." + std::to_string(job_.clone) : "") + ": rw=" + job_.rw +
         " bs=" + bs + " iodepth=" + std::to_string(job_.iodepth) + " offset=" + std::to_string(job_.offset) +
         " span=" + std::to_string(span_) + " bytes";
}

}  // namespace ssd
