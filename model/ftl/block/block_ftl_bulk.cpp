// BlockFtl::write_pages: preconditioning's random writes in bulk, their
// merges run die group by die group on several threads (block_ftl.h).
//
// Why this gives the state of write() page by page: the write buffer decides
// what each flush holds from the sequence of LPNs alone, so it runs first, in
// turn, and queues each flushed logical block on its die group. A merge reads
// and changes only its logical block's map entry and page states, its
// group's free blocks and its group's dies' blocks (and the statistics, which
// each thread sums on its own and which are added up after). The groups'
// queues are therefore independent, and each is run in its order by one
// thread; which thread runs which group does not matter.
#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>

#include "model/ftl/block/block_ftl.h"

namespace ssd::ftl {

void BlockFtl::write_pages(const std::vector<uint32_t>& lpns, uint64_t first_version, unsigned threads,
                           FtlWork& work) {
  // A merge that could reach outside its group (a TRIMmed page's count, a
  // dirty block's, the block in rewrite), or one that lists ops or content:
  // page by page.
  if (work.record_ops || media_.tracks_content() || trimmed_ || dirty_count_ || rewriting_ != kNone || stream_) {
    Ftl::write_pages(lpns, first_version, threads, work);
    return;
  }
  // The write buffer runs in sub-chunks, each flush's blocks queued on their
  // group; while the threads run one sub-chunk's queues, this thread queues
  // the next (then joins them).
  constexpr size_t kSub = size_t(1) << 16;
  // (On copies of the buffer and the counts: the threads read the members
  // near them all the time, and writes to them would bounce those lines
  // between the cores.)
  const auto queue_writes = [&](size_t from, size_t to, int side) {
    for (auto& q : queued_[side]) q.clear();
    for (auto& q : queued_pages_[side]) q.clear();
    std::vector<Buffered> buffer = buffer_;
    std::vector<uint32_t> held = held_;
    const uint32_t lpb = lpb_, per_buffer = buffer_pages_, blocks = buffer_blocks_;
    uint64_t flushes = 0, overwrites = 0;
    const auto queue_flush = [&]() {
      ++flushes;
      for (const uint32_t lb : held) {
        const uint32_t g = group_of(lb);
        std::vector<Buffered>& list = queued_pages_[side][g];
        const size_t first = list.size();
        take_block(buffer, lb, list);
        queued_[side][g].push_back({lb, uint32_t(first), uint32_t(list.size() - first)});
      }
      buffer.clear();
      held.clear();
    };
    for (size_t i = from; i < to; ++i)  // write(), its flushes queued
      buffer_page(buffer, held, {lpns[i] % lpb, lpns[i] / lpb, first_version + i}, blocks, per_buffer, unit_,
                  overwrites, queue_flush);
    buffer_ = std::move(buffer);
    held_ = std::move(held);
    stats_.host_pages_written += to - from;
    x_.buffer_flushes += flushes;
    x_.buffer_overwrites += overwrites;
  };
  for (int side : {0, 1}) queued_[side].resize(groups_), queued_pages_[side].resize(groups_);

  // Each thread takes the next group not yet taken and runs its queue in
  // order, its map entries and blocks fetched ahead.
  struct alignas(64) Part {  // (a line of its own: each thread counts in its own)
    FtlStats stats;
    Extra x;
    std::exception_ptr error;
  };
  const unsigned n = std::max(1u, std::min(threads, groups_));
  std::vector<Part> parts(n);
  std::atomic<uint32_t> next{0};
  const auto run = [&](Part& part, int side) {
    try {
      FtlWork w;
      w.record_ops = false;
      Emitter e{w, part.stats, part.x};
      std::vector<Buffered> scratch;
      scratch.reserve(buffer_pages_);
      for (uint32_t g; (g = next.fetch_add(1, std::memory_order_relaxed)) < groups_;) {
        const std::vector<Queued>& queue = queued_[side][g];
        const std::vector<Buffered>& list = queued_pages_[side][g];
        const auto lpn = [&](size_t j) { return Lpn(queue[j].lb * lpb_ + list[queue[j].first].offset); };
        for (size_t j = 0; j < queue.size(); ++j) {
          if (j + 16 < queue.size()) prefetch(lpn(j + 16), 0);
          if (j + 8 < queue.size()) prefetch(lpn(j + 8), 1);
          scratch.assign(list.begin() + queue[j].first, list.begin() + queue[j].first + queue[j].count);
          w.clear();
          merge_block(queue[j].lb, scratch, e);
        }
      }
    } catch (...) {
      part.error = std::current_exception();
    }
  };
  queue_writes(0, std::min(kSub, lpns.size()), 0);
  for (size_t at = 0; at < lpns.size(); at += kSub) {
    const int side = int(at / kSub % 2);
    next.store(0, std::memory_order_relaxed);
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < n; ++t) {
      try {
        helpers.emplace_back(run, std::ref(parts[t]), side);
      } catch (const std::system_error&) {
        break;  // no thread to be had: the others take its groups
      }
    }
    if (at + kSub < lpns.size()) queue_writes(at + kSub, std::min(at + 2 * kSub, lpns.size()), side ^ 1);
    run(parts[0], side);
    for (std::thread& h : helpers) h.join();
    if (std::any_of(parts.begin(), parts.end(), [](const Part& p) { return p.error != nullptr; })) break;
  }
  for (const Part& p : parts)
    if (p.error) std::rethrow_exception(p.error);
  for (const Part& p : parts) {
    stats_.add(p.stats);
    x_ += p.x;
  }
}

}  // namespace ssd::ftl
