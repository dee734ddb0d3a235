// The page FTL's preconditioning writes (Ftl::write_pages) on several
// threads. A terabyte drive's `used` state is a quarter of a billion random
// page writes and, with greedy GC at 7 % spare, six to seven times as many
// GC moves, each a random access to a gigabyte map: one core spends minutes
// waiting for memory. The dies' work is independent but for a few shared
// facts, so each thread takes a share of the dies:
//
// - Which die a write goes to (round robin, passing over dies full of valid
//   data) and which die holds the page it overwrites are decided first, for
//   a batch of a few thousand writes, in order, on one thread: the die of a
//   page changes only when the host writes it (GC moves stay on the die),
//   so a map of the batch's own writes and the table say it (the threads
//   read the table's entries first, a share each: the random reads), and
//   the per-die valid counts follow from them.
// - Each thread then runs, in order, the batch's writes that concern its
//   dies: invalidating the old copy (its block's valid count and GC bucket)
//   and placing the new one (the slice of GC the die owes, then the page).
//   GC on a die depends only on the writes and invalidations on that die,
//   in their order, so it runs as it would page by page.
// - A page that moves to another thread's die has its new map entry kept
//   aside until the batch is done (Lane::pending): the old thread may still
//   move the old copy by GC, or invalidate it, through the same entry.
//   Only the thread that held a page when the batch began writes its table
//   entry in the batch, and only until it gives the page up.
// - Counters, and the program count that dates a closed block (closed_at_,
//   GC's clock of block ages), are kept per thread and per write, and put
//   together in write order once the batch is done.
//
// The result is write()'s page by page, whatever the thread count
// (tests/model/ftl/bulk_writes_test.cpp compares the saved states). FTLs
// built on this one (dftl), wear levelling and victim policies other than
// greedy (which look at every die's blocks or at block ages while they run)
// take the page-by-page way.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>
#include <typeinfo>

#include "model/ftl/page/bulk_lane.h"
#include "model/ftl/page/page_ftl.h"

namespace ssd::ftl {

thread_local PageFtl::Lane* PageFtl::lane_ = nullptr;

namespace {
// Writes decided at a time: the pending entries of a batch stay in a
// core's cache, and the threads meet often enough to keep the batches even.
constexpr size_t kBatch = 4096;
constexpr uint16_t kNoLane = UINT16_MAX;

// What is known of each write of a batch before the threads serve it.
struct Planned {
  uint32_t old_ppn;   // the old copy's page when the batch began (read first, in parallel)
  uint32_t old_die;   // the old copy's die at this write (kNone: not mapped)
  uint32_t die;       // where the new copy goes
  uint16_t old_lane;  // the thread of old_die (kNoLane: not mapped)
  uint16_t lane;      // the thread of die
  bool old_in_batch;  // the old copy was written in this batch (its entry may be pending)
};

// The threads meet here between the steps of a batch (a few per batch,
// milliseconds apart). A thread that arrives early spins a little (the
// others are usually close behind on cores of their own), then sleeps
// until the last one wakes it. (It used to spin and yield until then: with
// a core taken by another process, e.g. a sweep's other point or ctest -j2,
// the waiting thread's yields took the core from the one it waited for,
// and preconditioning ran 4x slower than on one thread, most of it in
// sched_yield.)
// wait() returns whether `failed` was set when the last thread arrived:
// the same answer for every thread, whatever any of them sets after (a
// thread that looked at the flag itself could see another's error from
// the next step and leave the others waiting for it).
class Barrier {
 public:
  explicit Barrier(uint32_t n) : n_(n) {}
  bool wait(const std::atomic<bool>& failed) {
    const uint32_t round = round_.load(std::memory_order_acquire);
    if (count_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_) {
      stop_.store(failed.load(std::memory_order_relaxed), std::memory_order_relaxed);
      count_.store(0, std::memory_order_relaxed);
      {
        // (Under the lock: a thread between its last look and its sleep
        // cannot miss the new round.)
        std::lock_guard<std::mutex> hold(mutex_);
        round_.fetch_add(1, std::memory_order_release);
      }
      woken_.notify_all();
    } else {
      const auto moved_on = [&] { return round_.load(std::memory_order_acquire) != round; };
      for (uint32_t spins = 0; spins < kSpins && !moved_on(); ++spins) {
      }
      if (!moved_on()) {
        std::unique_lock<std::mutex> hold(mutex_);
        woken_.wait(hold, moved_on);
      }
    }
    // (Not overwritten before every thread has read it: the next meeting
    // needs them all.)
    return stop_.load(std::memory_order_relaxed);
  }

 private:
  static constexpr uint32_t kSpins = 4096;  // (a few microseconds)
  const uint32_t n_;
  std::atomic<uint32_t> count_{0}, round_{0};
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable woken_;
};
}  // namespace

bool PageFtl::bulk_parallel(unsigned threads, const std::vector<uint32_t>& lpns) const {
  if (threads < 2 || geo_.dies() < 2 || lpns.size() < 2 * kBatch || typeid(*this) != typeid(PageFtl) ||
      picker_.policy() != GcPolicy::Greedy || wl_.dynamic() || wl_.static_on())
    return false;
  // A fill's pages in order: each write is a few table entries in a row,
  // cheaper than the batches' bookkeeping (the bench drive's fill took 0.47
  // against 0.27 s). Random pages wait on memory: those gain.
  size_t in_order = 0;
  for (size_t i = 1; i < lpns.size(); ++i) in_order += lpns[i] == lpns[i - 1] + 1;
  return in_order < lpns.size() / 2;
}

void PageFtl::write_pages(const std::vector<uint32_t>& lpns, uint64_t first_version, unsigned threads,
                          FtlWork& work) {
  if (!bulk_parallel(threads, lpns)) return Ftl::write_pages(lpns, first_version, threads, work);
  const uint32_t dies = geo_.dies();
  std::vector<Lane> lanes(std::min<size_t>(threads, dies));
  for (Lane& lane : lanes) lane.pending.reserve(kBatch), lane.work.record_ops = false;
  const size_t n_lanes = lanes.size();
  std::vector<uint16_t> lane_of(dies);  // a share of consecutive dies each
  for (uint32_t d = 0; d < dies; ++d) lane_of[d] = uint16_t(size_t(d) * n_lanes / dies);
  const uint32_t pages_per_die = geo_.pages_per_block * geo_.blocks_per_die();  // (< 2^32: the constructor checks)
  const uint32_t per_turn = multi_page_ ? params_.die_pages : 1;
  std::vector<Planned> planned(kBatch);
  std::vector<uint64_t> seq_at(kBatch);  // per write: pages programmed in it, then seq_ before it
  PendingMap placed(kBatch);             // the batch's writes so far: lpn -> die
  Barrier barrier{uint32_t(n_lanes)};
  std::atomic<bool> failed{false};

  // 1b. In order, on the first thread: each write's die (place()'s round
  // robin), and its old copy's die, then.
  const auto plan = [&](size_t from, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      const uint32_t lpn = lpns[from + i];
      Planned& p = planned[i];
      // place()'s choice of die needs the counts after the invalidation;
      // the die is entered below (a placeholder now, one probe).
      const uint32_t in_batch = placed.set(lpn, 0);
      p.old_in_batch = in_batch != kNone;
      p.old_die = p.old_in_batch ? in_batch : p.old_ppn == kNone ? kNone : p.old_ppn / pages_per_die;
      p.old_lane = p.old_die == kNone ? kNoLane : lane_of[p.old_die];
      if (p.old_die != kNone) --die_valid_[p.old_die];  // (as invalidate() will: the choice looks at the counts)
      const uint32_t die = next_die(cursor_, per_turn);
      ++die_valid_[die];
      p.die = die;
      p.lane = lane_of[die];
      *placed.find(lpn) = die;
    }
    placed.drain([](uint32_t, uint32_t) {});
    // The threads count the dies' valid pages again as they serve the writes.
    for (size_t i = 0; i < n; ++i) {
      if (planned[i].old_die != kNone) ++die_valid_[planned[i].old_die];
      --die_valid_[planned[i].die];
    }
  };

  // 2. A thread's part of write i: the invalidation of the old copy if it
  // is on its dies (write()), the new copy if it goes there (place()).
  const auto serve = [&](Lane& lane, uint16_t me, size_t i, uint32_t lpn, uint64_t version) {
    const Planned& p = planned[i];
    lane.write = uint32_t(i);
    const bool held = p.old_lane == me;
    if (held) {
      uint32_t* pending = lane.pending.find(lpn);
      const uint32_t old = pending ? *pending : l2p_[lpn];
      if (pending) *pending = kNone;
      invalidate(old);
    }
    if (p.lane != me) return;
    lane.programs = 0;
    lane.work.clear();
    if (dies_[p.die].free_blocks.size() <= params_.gc_threshold) collect(p.die, false, lane.work);
    uint32_t block, page;
    const Ppn ppn = allocate(p.die, false, lane.work, block, page);
    media_.program(BlockId(block), page, {lpn, version});
    p2l_[ppn.v] = lpn;
    if (held)
      lane.map(l2p_, lpn, ppn.v);
    else
      lane.pending.set(lpn, ppn.v);  // (the old copy's thread may still use the table's entry)
    ++blocks_[block].valid;
    ++die_valid_[p.die];
    ++lane.stats.flash_pages_written;
    ++lane.stats.host_pages_written;
    lane.placed.emplace_back(uint32_t(i), uint32_t(++lane.programs));
  };

  // 3. On the first thread, once the batch is served: GC's clock (seq_
  // counts pages programmed) before each write, which dates the blocks
  // closed in it.
  const auto date_blocks = [&](size_t n) {
    for (Lane& lane : lanes) {
      for (const auto& [i, count] : lane.placed) seq_at[i] = count;
      lane.placed.clear();
    }
    for (size_t i = 0; i < n; ++i) {
      const uint64_t count = seq_at[i];
      seq_at[i] = seq_;
      seq_ += count;
    }
    for (Lane& lane : lanes) {
      for (const auto& [block, at] : lane.closes) closed_at_[block] = seq_at[at >> 32] + (at & 0xffffffffu);
      lane.closes.clear();
    }
  };

  // Each thread, batch after batch; they meet between the steps. (An error
  // is kept and ends every thread's loop at the next meeting.)
  const auto run = [&](uint16_t me) {
    Lane& lane = lanes[me];
    lane_ = &lane;
    const auto step = [&](auto&& what) {
      if (failed.load(std::memory_order_relaxed)) return;
      try {
        what();
      } catch (...) {
        lane.error = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
      }
    };
    for (size_t from = 0; from < lpns.size(); from += kBatch) {
      const size_t n = std::min(kBatch, lpns.size() - from);
      // 1a. The old copies' pages, a share each (random reads of the table).
      step([&] {
        const size_t first = n * me / n_lanes, last = n * (me + 1) / n_lanes;
        for (size_t i = first; i < last; ++i) {
          if (i + 16 < last) __builtin_prefetch(&l2p_[lpns[from + i + 16]]);
          planned[i].old_ppn = l2p_[lpns[from + i]];
        }
      });
      barrier.wait(failed);
      if (me == 0) step([&] { plan(from, n); });
      if (barrier.wait(failed)) break;
      step([&] {
        for (size_t i = 0; i < n; ++i) {
          // Ahead: the map entries and blocks of the pages this thread will
          // invalidate (the batch's first look at them, where still theirs).
          if (i + 16 < n && planned[i + 16].old_lane == me) __builtin_prefetch(&l2p_[lpns[from + i + 16]]);
          if (i + 8 < n && planned[i + 8].old_lane == me && !planned[i + 8].old_in_batch) {
            const uint32_t old = planned[i + 8].old_ppn;
            __builtin_prefetch(&p2l_[old], 1);
            __builtin_prefetch(&blocks_[old / geo_.pages_per_block], 1);
          }
          serve(lane, me, i, lpns[from + i], first_version + from + i);
        }
      });
      barrier.wait(failed);
      // The entries kept aside go to the table (no thread reads them now;
      // each page has one owner at the end, the other entries are kNone).
      lane.pending.drain([&](uint32_t lpn, uint32_t ppn) { l2p_[lpn] = ppn; });
      if (me == 0) step([&] { date_blocks(n); });
      if (barrier.wait(failed)) break;
    }
    lane_ = nullptr;
  };
  // Every thread or none: a thread's dies have no one else to serve them.
  // The helpers wait for the word to go (or to give up, if one of them
  // cannot be had: then page by page, on this thread).
  std::atomic<int> start{0};
  std::vector<std::thread> helpers;
  try {
    for (size_t t = 1; t < n_lanes; ++t)
      helpers.emplace_back([&, t] {
        int go;
        while ((go = start.load(std::memory_order_acquire)) == 0) std::this_thread::yield();
        if (go > 0) run(uint16_t(t));
      });
  } catch (const std::system_error&) {
    start.store(-1, std::memory_order_release);
    for (std::thread& h : helpers) h.join();
    return Ftl::write_pages(lpns, first_version, threads, work);
  }
  start.store(1, std::memory_order_release);
  run(0);
  for (std::thread& h : helpers) h.join();
  for (const Lane& lane : lanes)
    if (lane.error) std::rethrow_exception(lane.error);
  parallel_batches_ += (lpns.size() + kBatch - 1) / kBatch;
  for (const Lane& lane : lanes) {
    stats_.add(lane.stats);
    victims_ += lane.victims;
    victim_valid_ += lane.victim_valid;
  }
  work.clear();
}

}  // namespace ssd::ftl
