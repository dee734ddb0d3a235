#pragma once
// Latency distribution of one kind of IO in constant memory: exact count,
// min, max, mean and standard deviation, and percentiles from a log-linear
// histogram (128 sub-buckets per power of two: < 0.8 % relative error).

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ssd {

class LatencyStats {
 public:
  LatencyStats();
  void add(uint64_t ns);
  uint64_t count() const { return n_; }
  uint64_t min() const { return n_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  double mean() const { return n_ ? sum_ / double(n_) : 0.0; }
  double stddev() const;
  // Value at percentile p (0..100), clamped to [min, max].
  uint64_t percentile(double p) const;

  // The non-empty histogram buckets as (representative value, count), in
  // increasing value order (fio's json+ "bins").
  std::vector<std::pair<uint64_t, uint64_t>> bins() const;

  // The percentiles fio reports.
  static const std::array<double, 17>& fio_percentiles();

 private:
  static constexpr int kSubBits = 7;
  static size_t bucket_of(uint64_t v);
  static uint64_t bucket_mid(size_t b);

  std::vector<uint64_t> buckets_;
  uint64_t n_ = 0, min_ = UINT64_MAX, max_ = 0;
  double sum_ = 0, sum_sq_ = 0;
};

}  // namespace ssd
