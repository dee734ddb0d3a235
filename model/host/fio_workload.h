#pragma once
// The requests of one fio job (model/host/fio_job.h): fio's rw kinds, bs or
// bssplit, rwmixread, percentage_random, random_distribution, size/offset,
// io_size/number_ios/runtime limits, rate_iops, thinktime and fsync.
//
// Offsets: random IOs pick a block of min(bs) bytes in [offset, offset+size)
// with replacement (fio's norandommap); zipf and pareto pick a popularity
// rank and scatter it over the span with a hash, so the hot blocks are not
// all at the start (as fio does); normal centres a Gaussian of standard
// deviation sigma % of the span on the middle of the span. Sequential IOs
// continue from the end of the previous one and wrap at the end of the span.
//
// Timing: without rate_iops and thinktime the job is closed loop (a request
// arrives when a slot takes it). rate_iops makes arrivals open loop, the
// k-th at k / rate_iops; a request that finds every slot busy waits in the
// host queue (slat). thinktime delays an IO until thinktime after the slot
// taking it became free (the first iodepth IOs start at once). fsync=N
// queues a FLUSH CACHE after every N writes. The job stops issuing at
// ramp_time + runtime, after io_size bytes (default size; not with
// time_based) or after number_ios reads/writes/trims, whichever comes first.

#include <string>

#include "model/host/fio_job.h"
#include "model/host/io_source.h"
#include "model/sim/random.h"

namespace ssd {

class FioWorkload : public IoSource {
 public:
  // `capacity`: user bytes of the drive (the span when size is unset).
  FioWorkload(const FioJob& job, uint64_t capacity, uint64_t seed);
  bool next(HostRequest& req, const sc_core::sc_time& now) override;
  std::string describe() const override;

  // Issuing ends here (ramp_time + runtime; zero: no time limit).
  sc_core::sc_time end() const { return end_; }
  const FioJob& job() const { return job_; }

 private:
  double uniform();        // [0, 1)
  uint64_t random_unit();  // a block index in [0, units_) from the job's distribution
  void init_zipf();

  FioJob job_;
  uint64_t span_, align_, units_;
  uint64_t byte_limit_;    // 0: none
  sc_core::sc_time end_;
  uint32_t read_pct_, trim_ = 0, random_pct_;
  uint64_t issued_ = 0, bytes_ = 0, writes_ = 0, flushes_ = 0, seq_ = 0;
  bool flush_due_ = false;
  double zipf_zetan_ = 0, zipf_eta_ = 0, zipf_alpha_ = 0;
  Random rng_;
};

}  // namespace ssd
