// Controller: drive states before the timed phase (model/controller/
// drive_state.h), applied functionally: the FTL does its work, the flash
// media changes, no time passes (except what an idle phase estimates).
#include <sched.h>

#include <algorithm>
#include <cmath>

#include "model/controller/controller.h"
#include "model/sim/random.h"
#include "traces/trace_reader.h"

namespace ssd {

namespace {
// The cores this process may run on (its affinity mask: taskset, a cgroup's cpuset).
unsigned available_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return unsigned(std::max(1, CPU_COUNT(&set)));
}
}  // namespace

std::vector<StatePhaseResult> Controller::apply_state(const DriveState& state, uint64_t seed, ContentShadow* shadow,
                                                      const std::function<void(uint64_t, uint64_t)>& progress,
                                                      const std::function<uint64_t(uint64_t)>& to_host) {
  std::vector<StatePhaseResult> results;
  if (state.phases.empty()) return results;
  const uint64_t pages = ftl_->user_pages();
  const uint32_t page = cfg_.nand.host_page();
  const auto amount = [&](const StatePhase& p) {
    return p.multiple > 0 ? static_cast<uint64_t>(p.multiple * double(pages)) : (p.bytes + page - 1) / page;
  };
  // What the drive cannot hold is refused, not cut to fit: a fill beyond the
  // LBAs, a block larger than them.
  const uint64_t capacity = pages * page;
  const std::string whose = to_host ? " of a RAID member" : "";
  for (const StatePhase& p : state.phases) {
    if ((p.kind == StatePhase::Kind::Fill || p.kind == StatePhase::Kind::RandWrite) && p.bs > capacity)
      throw StateError("phase '" + p.text + "': block size " + std::to_string(p.bs) + " B is more than the user capacity" +
                       whose + " (" + std::to_string(capacity) + " B)");
    if (p.kind == StatePhase::Kind::Fill && p.bytes > capacity)
      throw StateError("phase '" + p.text + "': fills " + std::to_string(p.bytes) + " B, more than the user capacity" +
                       whose + " (" + std::to_string(capacity) + " B)");
  }
  uint64_t total = 0, done = 0;
  for (const StatePhase& p : state.phases)
    total += p.kind == StatePhase::Kind::Fill ? (p.multiple > 0 || p.bytes > 0 ? std::min(pages, amount(p)) : pages) : p.kind == StatePhase::Kind::RandWrite || p.kind == StatePhase::Kind::Image ? amount(p) : 0;
  // A branch every page, a call every 64k: free next to the FTL write.
  const auto tick = [&]() {
    if (progress && (done & 0xffff) == 0) progress(done, total);
    ++done;
  };
  work_.record_ops = false;  // functional only: no flash timing to schedule
  // The host's shadow (content checks) sees these writes as the host's own.
  const auto tag = [&](uint64_t lpn) {
    if (!shadow) return ++version_;
    const uint64_t t = shadow->next_tag();
    const uint64_t host = to_host ? to_host(lpn) : lpn;
    if (host < shadow->tags().size()) shadow->wrote_page(host, t);  // a RAID member's tail past whole stripes: unused
    return t;
  };
  const auto write = [&](uint64_t lpn) {
    tick();
    work_.clear();
    ftl_->write(Lpn(uint32_t(lpn)), tag(lpn), work_);
  };
  // `n` pages, page `next()` each, written in bulk when no shadow needs to
  // see each write: Ftl::write_pages, which may use several threads, a
  // chunk at a time so that progress and an interruption are seen.
  const unsigned threads = cfg_.state_threads ? cfg_.state_threads : available_cores();
  std::vector<uint32_t> lpns;
  uint64_t next_write = UINT64_MAX;  // the page after the last command's (none yet)
  const auto write_many = [&](uint64_t n, auto next) {
    // Each of these pages is a host write of its own: one page, continuing
    // nothing. Said once, as every page would say the same (a random page
    // is next to the one before at odds of one in the capacity). Without
    // it, the FTL would take them as part of the command phase before (a
    // 128 KiB fill: the page FTL striping them over the dies as one
    // command, the block FTL serving them as a sequential stream's rewrites).
    ftl_->begin_command({ftl::HostRun::Op::Write, 0, 1, false});
    next_write = UINT64_MAX;
    if (shadow) {
      for (uint64_t i = 0; i < n; ++i) write(next());
      return;
    }
    for (uint64_t i = 0; i < n;) {
      lpns.resize(std::min<uint64_t>(n - i, 1u << 20));
      for (uint32_t& l : lpns) l = next();
      if (progress) progress(done, total);
      work_.clear();
      ftl_->write_pages(lpns, version_ + 1, threads, work_);
      version_ += lpns.size(), done += lpns.size(), i += lpns.size();
    }
  };
  // One command of `n` pages from `first`, as the FTL would see it from the host.
  const auto command = [&](uint64_t first, uint64_t n) {
    ftl_->begin_command({ftl::HostRun::Op::Write, first, n, first == next_write});
    next_write = first + n;
    for (uint64_t l = first; l < first + n; ++l) write(l);
  };
  uint32_t random_phases = 0;
  for (const StatePhase& p : state.phases) {
    const ftl::FtlStats before = ftl_->stats();
    StatePhaseResult r{p.text};
    switch (p.kind) {
      case StatePhase::Kind::SecureErase:
        secure_erase(shadow, to_host);
        break;
      case StatePhase::Kind::Fill: {
        const uint64_t per = std::max<uint64_t>(1, (p.bs + page - 1) / page);
        const uint64_t upto = p.multiple > 0 || p.bytes > 0 ? std::min(pages, amount(p)) : pages;
        if (per == 1) {  // page by page (today's seq-fill)
          uint32_t l = 0;
          write_many(upto, [&] { return l++; });
        } else {
          for (uint64_t l = 0; l < upto; l += per) command(l, std::min(per, upto - l));
        }
        break;
      }
      case StatePhase::Kind::RandWrite: {
        Random rng(state_phase_seed(seed, random_phases++));
        const uint64_t n = amount(p), per = std::max<uint64_t>(1, (p.bs + page - 1) / page);
        if (per == 1) {
          write_many(n, [&] { return uint32_t(rng.below(pages)); });
        } else {
          const uint64_t slots = std::max<uint64_t>(1, pages / per);
          for (uint64_t w = 0; w < n; w += per) command(rng.below(slots) * per, std::min(per, pages));
        }
        break;
      }
      case StatePhase::Kind::Image: {
        // Files of log-uniform size from 4 KiB to 4 MiB, each written
        // sequentially in 128 KiB commands at a random place: an installed OS
        // and its applications. Their overwrites invalidate whole runs of
        // pages, unlike scattered 4 KiB writes.
        Random rng(state_phase_seed(seed, random_phases++));
        const uint64_t n = amount(p), cmd = std::max<uint64_t>(1, (128u << 10) / page);
        for (uint64_t w = 0; w < n;) {
          const double u = double(rng.next() >> 11) * 0x1.0p-53;  // uniform in [0, 1)
          const double bytes = 4096.0 * std::pow(2.0, 10.0 * u);
          const uint64_t len = std::min({pages, n - w, std::max<uint64_t>(1, uint64_t(bytes) / page)});
          const uint64_t at = rng.below(pages - len + 1);
          for (uint64_t l = at; l < at + len; l += cmd) command(l, std::min(cmd, at + len - l));
          w += len;
        }
        break;
      }
      case StatePhase::Kind::TrimAll:
        if (!cfg_.trim) break;  // a drive without TRIM support: the OS sends none
        for (uint64_t l = 0; l < pages; ++l) {
          work_.clear();
          ftl_->trim(Lpn(uint32_t(l)), work_);
        }
        if (shadow && to_host)
          for (uint64_t l = 0; l < pages; ++l) {
            if (to_host(l) < shadow->tags().size()) shadow->wrote_page(to_host(l), 0);
          }
        else if (shadow)
          shadow->trimmed(0, pages * page);
        break;
      case StatePhase::Kind::Steady:
        // Built, not written: from an erased drive, the FTL lays out the
        // state its GC would reach (its model, page_ftl's steady_state.cpp).
        secure_erase(shadow, to_host);
        if (!ftl_->steady_state(state_phase_seed(seed, random_phases++), tag))
          throw StateError("phase 'steady': ftl.name=" + cfg_.ftl_name +
                           " has no steady-state model (every built-in FTL has one; page and dftl with greedy GC)");
        break;
      case StatePhase::Kind::Trace:
        apply_trace(p, r, shadow, to_host != nullptr, command);
        break;
      case StatePhase::Kind::Idle:
        r.idle_flash_s = idle(p.idle_s, r.background_slices);
        break;
    }
    const ftl::FtlStats& after = ftl_->stats();
    r.pages_written = after.host_pages_written - before.host_pages_written;
    r.gc_pages_moved = after.gc_pages_moved - before.gc_pages_moved;
    r.trimmed_pages = after.trimmed_pages - before.trimmed_pages;
    results.push_back(r);
  }
  work_.clear();
  work_.record_ops = true;
  ftl_->reset_stats();
  return results;
}

void Controller::apply_trace(const StatePhase& p, StatePhaseResult& r, ContentShadow* shadow, bool raid_member,
                             const std::function<void(uint64_t, uint64_t)>& command) {
  // A RAID member would have to pick its own stripes out of the host's
  // addresses: not done, so refused rather than applied wrongly.
  if (raid_member) throw StateError("phase '" + p.text + "': not supported with raid.members > 1");
  const uint64_t pages = ftl_->user_pages(), page = cfg_.nand.host_page(), capacity = pages * page;
  std::unique_ptr<traces::TraceReader> reader;
  try {
    reader = traces::open_trace(p.path, "", traces::ReaderOptions{});
    traces::TraceRecord rec;
    while (reader->next(rec)) {
      ++r.trace_records;
      if (rec.op == traces::TraceOp::PowerFail)  // a drive state is what the drive holds, not a power cut
        throw traces::TraceError(std::string(rec.source), "line " + std::to_string(rec.position),
                                 "a powerfail record has no place in a drive state");
      if (rec.op == traces::TraceOp::Read || rec.op == traces::TraceOp::Flush) continue;  // no effect on the state
      // Addresses beyond this drive wrap, the request kept whole (as the replay's trace.beyond=wrap).
      const uint64_t bytes = std::min(rec.bytes, capacity);
      uint64_t offset = rec.offset % capacity;
      if (offset > capacity - bytes) offset = capacity - bytes;
      if (rec.op == traces::TraceOp::Write) {  // partly written pages are written whole (read-modify-write)
        const uint64_t first = offset / page, last = (offset + bytes - 1) / page;
        command(first, last - first + 1);
      } else if (cfg_.trim) {  // TRIM unmaps only whole pages; a drive without TRIM gets none
        const uint64_t first = (offset + page - 1) / page, end = (offset + bytes) / page;
        for (uint64_t l = first; l < end; ++l) {
          work_.clear();
          ftl_->trim(Lpn(uint32_t(l)), work_);
        }
        if (shadow && end > first) shadow->trimmed(first * page, (end - first) * page);
      }
    }
  } catch (const traces::TraceError& e) {
    throw StateError("phase '" + p.text + "': " + e.what());
  }
}

void Controller::secure_erase(ContentShadow* shadow, const std::function<uint64_t(uint64_t)>& to_host) {
  // Every block that holds data is erased (its wear counts), and the
  // firmware starts over with an empty map.
  const FlashGeometry& g = media_.geometry();
  for (uint64_t b = 0; b < g.blocks(); ++b)
    if (media_.is_programmed(g.first_page(BlockId(b)))) media_.erase(BlockId(b));
  ftl_.reset();
  ftl_ = ftl::FtlRegistry::instance().create(cfg_.ftl_name, ftl_params_, media_);
  if (shadow && to_host)
    for (uint64_t l = 0; l < ftl_->user_pages(); ++l) {
      if (to_host(l) < shadow->tags().size()) shadow->wrote_page(to_host(l), 0);
    }
  else if (shadow)
    shadow->trimmed(0, ftl_->user_pages() * cfg_.nand.host_page());
}

bool Controller::checkpoint(Checkpoint& c) {
  c.section("firmware");
  c.value(version_);
  c.value(next_lpn_);
  media_.checkpoint(c);
  return ftl_->checkpoint(c);
}

double Controller::idle(double seconds, uint64_t& slices) {
  // The firmware's idle loop keeps up to ftl.idle_dies slices in flight,
  // each on dies no other uses, and issues a slice's NAND ops one at a time:
  // each die's time is the sum of its ops' times, and the loop stops when
  // the FTL has no more work or the dies have had their share of `seconds`
  // (each die at most `seconds`, all together idle_dies x `seconds`). With
  // one slice at a time the whole drive has `seconds`. Bus contention
  // between dies of a channel is left out (a GC move keeps its die busy
  // for tR + tPROG, far longer than the bus for its two transfers). A
  // firmware without idle-time work (ftl.idle_after = 0) does nothing.
  if (cfg_.idle_after == sc_core::SC_ZERO_TIME) return 0;
  const FlashGeometry& g = fgeo_;
  const double xfer = double(g.page_size) / cfg_.nand.channel_rate;
  // Compression: a slot is a share of a flash page (its program a share of
  // the page's, on average; its read a whole tR and its own bytes).
  const double share = packed_.enabled() ? double(cfg_.nand.compressed_bytes) / g.page_size : 1.0;
  const double budget = seconds * cfg_.idle_dies;
  std::vector<double> die_spent(g.dies(), 0.0);
  std::vector<uint8_t> spent_up(g.dies(), 0);  // dies that have had their time: the FTL looks elsewhere
  double spent = 0;
  work_.record_ops = true;  // the ops' kinds give the time
  while (spent < budget) {
    work_.clear();
    work_.busy_dies = cfg_.idle_dies > 1 ? &spent_up : nullptr;
    const bool more = ftl_->background(work_);
    work_.busy_dies = nullptr;
    if (!more) break;
    ++slices;
    for (const ftl::FlashOp& op : work_.ops) {
      const uint32_t slot = g.page_in_block(op.ppn);
      const uint32_t pg = packed_.enabled() ? uint32_t(uint64_t(slot) * cfg_.nand.compressed_bytes / g.page_size)
                                            : cfg_.nand.physical_page(slot);
      const double t = op.kind == ftl::FlashOp::Kind::Read ? cfg_.nand.read_time(pg).to_seconds() + xfer * share
                       : op.kind == ftl::FlashOp::Kind::Program
                           ? (xfer + cfg_.nand.program_time(pg).to_seconds()) * share
                           : cfg_.nand.t_erase.to_seconds();
      spent += t;
      const uint32_t die = g.die_of(op.ppn).v;
      if ((die_spent[die] += t) >= seconds) spent_up[die] = 1;
    }
  }
  work_.record_ops = false;
  return spent;
}

}  // namespace ssd
