#include "model/host/latency_stats.h"

#include <algorithm>
#include <cmath>

namespace ssd {

LatencyStats::LatencyStats() : buckets_(size_t(64 - kSubBits + 1) << kSubBits, 0) {}

size_t LatencyStats::bucket_of(uint64_t v) {
  if (v < (1u << kSubBits)) return size_t(v);
  const int e = 63 - __builtin_clzll(v);  // v in [2^e, 2^(e+1))
  const int shift = e - kSubBits;
  return (size_t(shift + 1) << kSubBits) + size_t((v >> shift) - (1u << kSubBits));
}

uint64_t LatencyStats::bucket_mid(size_t b) {
  if (b < (1u << kSubBits)) return b;
  const int shift = int(b >> kSubBits) - 1;
  const uint64_t lo = (uint64_t((b & ((1u << kSubBits) - 1)) + (1u << kSubBits))) << shift;
  return lo + ((uint64_t(1) << shift) >> 1);
}

void LatencyStats::add(uint64_t ns) {
  ++buckets_[bucket_of(ns)];
  ++n_;
  min_ = std::min(min_, ns);
  max_ = std::max(max_, ns);
  sum_ += double(ns);
  sum_sq_ += double(ns) * double(ns);
}

double LatencyStats::stddev() const {
  if (n_ < 2) return 0.0;
  const double m = mean();
  return std::sqrt(std::max(0.0, (sum_sq_ - double(n_) * m * m) / double(n_ - 1)));
}

uint64_t LatencyStats::percentile(double p) const {
  if (n_ == 0) return 0;
  // fio's convention: the smallest value with at least p% of samples at or below it.
  const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(p / 100.0 * double(n_))));
  uint64_t seen = 0;
  for (size_t b = 0; b < buckets_.size(); ++b) {
    seen += buckets_[b];
    if (seen >= rank) return std::clamp(bucket_mid(b), min_, max_);
  }
  return max_;
}

std::vector<std::pair<uint64_t, uint64_t>> LatencyStats::bins() const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (size_t b = 0; b < buckets_.size(); ++b)
    if (buckets_[b]) out.emplace_back(std::clamp(bucket_mid(b), min_, max_), buckets_[b]);
  return out;
}

const std::array<double, 17>& LatencyStats::fio_percentiles() {
  static const std::array<double, 17> p{1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  return p;
}

}  // namespace ssd
