#include "model/hdd/hdd_disk.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tlm/ssd_protocol.h"

namespace ssd {

using ssdtlm::HostCommand;
using ssdtlm::HostOp;

struct HddDisk::Job {
  HostOp op = HostOp::Read;
  uint64_t offset = 0, bytes = 0;
  bool cached = false;  // a write already acknowledged from the write cache (destage)
  double queued = 0;    // when it entered the queue (s)
  sc_core::sc_event done;
};

HddDisk::HddDisk(sc_core::sc_module_name name, const HddConfig& cfg) : sc_module(name), host("host"), cfg_(cfg) {
  host.register_b_transport(this, &HddDisk::b_transport);
  // settle + a sqrt(d) + b d through (1/3, avg) and (1, full): two linear equations.
  const double s = cfg_.track_to_track.to_seconds(), avg = cfg_.avg_seek.to_seconds() - s,
               full = cfg_.full_seek.to_seconds() - s;
  const double r3 = 1.0 / std::sqrt(3.0);
  a_ = (avg - full / 3.0) / (r3 - 1.0 / 3.0);
  b_ = full - a_;
  SC_THREAD(mechanics);
}

HddDisk::~HddDisk() {
  for (Job* j : queue_)
    if (j->cached) delete j;
}

double HddDisk::position(uint64_t offset) const {
  const double f = std::min(1.0, double(offset) / double(cfg_.capacity)), ro = cfg_.rate_outer,
               ri = cfg_.rate_inner;
  if (ro == ri) return f;
  // (ro - ri)/2 x^2 - ro x + f (ro + ri)/2 = 0, the root in [0, 1].
  return (ro - std::sqrt(ro * ro - (ro - ri) * f * (ro + ri))) / (ro - ri);
}

double HddDisk::angle(uint64_t offset) const {
  const double track = rate(position(offset)) * revolution();  // bytes per track here
  const double turns = double(offset) / track;
  return turns - std::floor(turns);
}

double HddDisk::seek_time(double d) const {
  return d <= 0 ? 0.0 : cfg_.track_to_track.to_seconds() + a_ * std::sqrt(d) + b_ * d;
}

double HddDisk::positioning(const Job& job, double from, double now) const {
  const double arrive = now + seek_time(std::fabs(position(job.offset) - from));
  // The platter turned on since the head last passed a known sector.
  const double under = spindle_angle_ + (arrive - spindle_time_) / revolution();
  double wait = angle(job.offset) - (under - std::floor(under));
  wait -= std::floor(wait);
  if (wait > 1.0 - 1e-9) wait = 0;  // the sector is under the head now (picosecond rounding)
  return arrive - now + wait * revolution();
}

double HddDisk::buffered_at(const Job& job) const {
  if (job.op != HostOp::Read || seg_time_ < 0 || job.offset < seg_start_) return -1;
  const double now = sc_core::sc_time_stamp().to_seconds();
  const double r = rate(position(seg_end_));
  // How far the buffer reaches now: what was read, plus the read-ahead so far.
  const uint64_t frontier =
      reading_ahead_ ? seg_end_ + std::min<uint64_t>(ra_limit_, uint64_t(std::max(0.0, now - seg_time_) * r)) : ra_stop_;
  if (job.offset > frontier) return -1;
  const uint64_t end = job.offset + job.bytes;
  if (end <= frontier) return std::max(seg_time_, seg_time_ + double(end > seg_end_ ? end - seg_end_ : 0) / r);
  // Starts in the buffer, ends beyond: the head, still reading ahead, streams on.
  return reading_ahead_ ? seg_time_ + double(end - seg_end_) / r : -1;
}

void HddDisk::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  HostCommand& cmd = *trans.get_extension<HostCommand>();
  sc_core::wait(delay);  // the command arrives
  delay = sc_core::SC_ZERO_TIME;
  ++stats_.commands;
  sc_core::wait(cfg_.cmd_overhead);  // the drive's electronics take the command
  switch (cmd.op) {
    case HostOp::Trim:
      break;  // a disk has nothing to unmap
    case HostOp::Flush:
      while (cached_ > 0) sc_core::wait(space_);
      break;
    case HostOp::Write:
      if (cfg_.write_cache) {
        // Room in the buffer (a write larger than all of it waits for an empty buffer).
        // Writes take room in arrival order: woken together when a destage
        // frees some, the kernel would otherwise let the newest take it every
        // time and starve the oldest (minutes at QD3).
        const uint64_t ticket = next_ticket_++;
        const auto full = [&] {
          return cached_ > 0 && (cached_ + cmd.bytes > cfg_.cache || cached_writes_ >= cfg_.write_segments);
        };
        // hdd.write_flush=batch: a full cache takes nothing until it has
        // been written out whole.
        while (ticket != serving_ticket_ || flushing_ || full()) {
          if (cfg_.write_batch && ticket == serving_ticket_ && full()) flushing_ = true;
          sc_core::wait(space_);
        }
        ++serving_ticket_;
        space_.notify();  // the next in line may fit too
        cached_ += cmd.bytes;
        ++cached_writes_;
        Job* j = new Job{cmd.op, cmd.offset, cmd.bytes, true, sc_core::sc_time_stamp().to_seconds(), {}};
        queue_.push_back(j);
        work_.notify();
        break;
      }
      [[fallthrough]];
    case HostOp::Read: {
      Job j{cmd.op, cmd.offset, cmd.bytes, false, sc_core::sc_time_stamp().to_seconds(), {}};
      queue_.push_back(&j);
      work_.notify();
      sc_core::wait(j.done);
      if (cmd.op == HostOp::Read) cmd.ready.assign(1, {cmd.bytes, sc_core::sc_time_stamp()});
      break;
    }
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void HddDisk::mechanics() {
  const double inf = std::numeric_limits<double>::infinity();
  for (;;) {
    while (queue_.empty()) sc_core::wait(work_);
    const double now = sc_core::sc_time_stamp().to_seconds();
    // The next job: in arrival order, or the one the head reaches first.
    size_t pick = 0;
    // The queue is in arrival order: its head is the oldest. Past the bound
    // it goes first, so a far command is not passed over forever.
    const bool overdue = cfg_.max_wait > 0 && now - queue_.front()->queued >= cfg_.max_wait;
    if (cfg_.sptf && !overdue) {
      double best = inf;
      for (size_t i = 0; i < queue_.size(); ++i) {
        const double b = buffered_at(*queue_[i]);
        const double cost = b >= 0 ? std::max(0.0, b - now) : positioning(*queue_[i], head_, now);
        if (cost < best) best = cost, pick = i;
      }
    }
    Job* j = queue_[pick];
    queue_.erase(queue_.begin() + std::ptrdiff_t(pick));
    const uint64_t end = j->offset + j->bytes;
    double t;
    const double buffered = buffered_at(*j);
    if (buffered >= 0) {  // from the read buffer (or streaming on into it)
      t = std::max(0.0, buffered - now);
      ++stats_.cache_hits;
      if (end > seg_end_) {
        stats_.transfer_s += t;
        seg_end_ = end;
        seg_time_ = now + t;
        head_ = position(end);
        spindle_angle_ = angle(end), spindle_time_ = now + t;
      }
    } else {
      if (reading_ahead_) {  // a media op stops the read-ahead where it got
        ra_stop_ = seg_end_ + std::min<uint64_t>(ra_limit_, uint64_t(std::max(0.0, now - seg_time_) *
                                                                     rate(position(seg_end_))));
        reading_ahead_ = false;
      }
      const double x = position(j->offset), d = std::fabs(x - head_);
      const double seek = seek_time(d), pos = positioning(*j, head_, now), xfer = double(j->bytes) / rate(x);
      ++stats_.media_ops;
      if (d > 0) ++stats_.seeks, stats_.seek_distance += d;
      stats_.seek_s += seek;
      stats_.rotation_s += pos - seek;
      stats_.transfer_s += xfer;
      t = pos + xfer;
      head_ = position(end);
      spindle_angle_ = angle(end), spindle_time_ = now + t;
      if (j->op == HostOp::Read) {  // the buffer now holds this read, and reads ahead of it
        seg_start_ = j->offset;
        seg_end_ = ra_stop_ = end;
        seg_time_ = now + t;
        ra_limit_ = cfg_.cache > j->bytes ? std::min(cfg_.read_ahead, cfg_.cache - j->bytes) : 0;
        reading_ahead_ = ra_limit_ > 0;
      } else if (j->offset < std::max(seg_end_, ra_stop_) && end > seg_start_) {
        seg_time_ = -1;  // the write changed what the buffer held
        reading_ahead_ = false;
      }
    }
    busy_until_ = sc_core::sc_time(now + t, sc_core::SC_SEC);
    sc_core::wait(sc_core::sc_time(t, sc_core::SC_SEC));
    if (j->cached) {
      cached_ -= j->bytes;
      --cached_writes_;
      if (cached_writes_ == 0) flushing_ = false;
      ++stats_.destaged_writes;
      delete j;
      space_.notify();
    } else {
      j->done.notify();
    }
  }
}

}  // namespace ssd
