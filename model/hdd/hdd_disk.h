#pragma once
// A hard disk behind the same SATA link and host (`device = hdd`): the
// baseline the SSDs of the era replaced. One actuator and one spindle serve
// a queue of commands:
//
// - Layout: LBAs run from the outer edge (position x = 0) to the inner one
//   (x = 1). At constant rpm a track holds rate(x) x one revolution of data,
//   with rate(x) falling linearly from `hdd.rate_outer` to `hdd.rate_inner`
//   (zoned recording smoothed into a line), so the outer part of the stroke
//   holds more LBAs: LBA fraction f(x) = (ro x - (ro - ri) x^2 / 2) / ((ro + ri) / 2).
// - Seek over a distance d (fraction of the stroke): 0 if d = 0, else
//   settle + a sqrt(d) + b d, with a and b set so the curve passes through
//   the stated average seek at d = 1/3 (the mean distance between two random
//   positions) and the full-stroke seek at d = 1.
// - Rotation: the platter's angle is t / (60 s / rpm) mod 1 (deterministic);
//   an LBA's angle is its offset into its track; the head waits for it.
// - Transfer: bytes / rate(x) off the media.
// - Queue: `hdd.ncq_reorder=sptf` serves next the command with the shortest
//   positioning time (seek + rotation) from where the head is, unless the
//   oldest has waited `hdd.max_wait`: then it goes first (pure SPTF starves
//   a far command for as long as nearer ones keep coming: minutes in a
//   3-deep random-write loop); `fifo` in arrival order.
// - Read cache: after a read the disk keeps reading ahead (`hdd.read_ahead`
//   bytes) while nothing else is queued; a read inside the segment it holds
//   (from the last read's start, at most `hdd.cache` bytes) is served from
//   the buffer as soon as its data has come off the media.
// - Write cache (`hdd.write_cache`): a write completes once it is in the
//   buffer (at most `hdd.cache` bytes and `hdd.write_segments` writes
//   waiting) and is destaged later, in the queue's order; FLUSH waits until
//   the buffer is empty. Full, it takes the next write when one destage has
//   made room (`hdd.write_flush=continuous`) or once it has been written
//   out whole (`batch`). Reads do not
//   look into the write buffer (the benchmarks here never read what they
//   just wrote).
// - Every command costs `hdd.cmd_overhead` in the drive's electronics.

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <vector>

#include "model/sim/config.h"

namespace ssd {

struct HddStats {
  uint64_t commands = 0, media_ops = 0, seeks = 0, cache_hits = 0, destaged_writes = 0;
  double seek_s = 0, rotation_s = 0, transfer_s = 0, seek_distance = 0;  // sums
};

class HddDisk : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<HddDisk> host;  // from the SATA interface

  SC_HAS_PROCESS(HddDisk);
  HddDisk(sc_core::sc_module_name name, const HddConfig& cfg);
  ~HddDisk() override;

  uint64_t user_bytes() const { return cfg_.capacity; }
  const HddStats& stats() const { return stats_; }
  sc_core::sc_time busy_until() const { return busy_until_; }

  // The model's geometry and timing, public for tests and docs.
  double position(uint64_t offset) const;  // x in [0, 1]
  double rate(double x) const { return cfg_.rate_outer - (cfg_.rate_outer - cfg_.rate_inner) * x; }
  double seek_time(double distance) const;  // seconds
  double revolution() const { return 60.0 / cfg_.rpm; }
  double angle(uint64_t offset) const;      // [0, 1)

 private:
  struct Job;
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void mechanics();  // the actuator's thread
  // Seconds from `now` with the head at `from` until `job`'s first sector is under it.
  double positioning(const Job& job, double from, double now) const;
  // A read the buffer serves: its data is (or will be) there at this time; < 0 if not.
  double buffered_at(const Job& job) const;

  HddConfig cfg_;
  double a_ = 0, b_ = 0;  // seek curve
  std::vector<Job*> queue_;
  sc_core::sc_event work_, space_;
  double head_ = 0;                  // x of the head
  uint64_t cached_ = 0;              // write-cache bytes waiting
  uint32_t cached_writes_ = 0;       // and the writes they belong to (hdd.write_segments)
  bool flushing_ = false;            // hdd.write_flush=batch: the full cache is being written out
  uint64_t next_ticket_ = 0, serving_ticket_ = 0;  // writes waiting for room, first come first served
  // The read segment: [seg_start_, seg_end_) read by the last media read
  // (ending at seg_end_ at time seg_time_); read-ahead continues past it at
  // the media rate while the actuator has nothing else to do.
  uint64_t seg_start_ = 0, seg_end_ = 0, ra_stop_ = 0, ra_limit_ = 0;
  double seg_time_ = -1;
  bool reading_ahead_ = false;
  // The spindle: the angle under the head at a known time (it turns on at rpm).
  double spindle_angle_ = 0, spindle_time_ = 0;
  sc_core::sc_time busy_until_;
  HddStats stats_;
};

}  // namespace ssd
