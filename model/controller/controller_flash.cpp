// Controller, the flash side: a work list's NAND commands issued as the
// FTL's dependencies allow (run_flash), pages of a die's planes run as one
// multi-plane operation, program/erase suspend's moved ends (resumed), and
// compressed pages (packed_op). The host side is controller.cpp.
#include <algorithm>

#include "model/controller/controller.h"

namespace ssd {

sc_time Controller::run_flash(const ftl::FtlWork& work, const sc_time& at, const Batch* batch) {
  // The firmware builds every NAND command of the list up front; the flash
  // controller's sequencer then runs them as their dependencies allow.
  // (Tested once here: the loops below run for every op of every command.)
  const bool plan = needs_plan(), tracked = bool(on_program_);
  if (plan) plan_view(work.ops, planned_);
  const sc_time issued = cpu_.execute(at, cfg_.cpu.page_cycles * nand_commands(work.ops, planned_));
  // Completion time of each op, for the dependencies the FTL declared.
  std::vector<sc_time>& done = done_;
  done.assign(work.ops.size(), sc_core::SC_ZERO_TIME);
  sc_time all = issued;
  const FlashGeometry& g = cfg_.nand.geometry;
  // With serial GC, a command that needs GC (or a merge) runs its flash work
  // after the previous one's: the whole list, host pages included, is the
  // firmware's merge routine.
  bool merges = false;
  if (cfg_.serial_gc)
    for (const ftl::FlashOp& op : work.ops) merges = merges || op.gc;
  const sc_time gc_free = merges ? std::max(issued, gc_free_at_) : issued;
  const auto start_of = [&](size_t i) {
    const ftl::FlashOp& op = work.ops[i];
    sc_time start = gc_free;
    if (op.after >= 0) start = std::max(start, done[size_t(op.after)]);
    // A barrier's siblings wait for what their head (the nearest earlier
    // barrier that is not a sibling) waits for: the ops before the head.
    const size_t first = op.barrier ? head_of(work.ops, i) : i;
    if (op.barrier && batch) {  // every earlier op of its own page
      start = std::max(start, issued);
      for (size_t j = batch->page_start[i]; j < first; ++j) start = std::max(start, done[j]);
    } else if (op.barrier && first == i) {
      start = all;
    } else if (op.barrier) {
      start = issued;
      for (size_t j = 0; j < first; ++j) start = std::max(start, done[j]);
    }
    return start;
  };
  const auto bytes_of = [&](size_t i) {
    const ftl::FlashOp& op = work.ops[i];
    uint32_t bytes = op.kind == ftl::FlashOp::Kind::Erase ? 0 : g.page_size;
    if (op.kind == ftl::FlashOp::Kind::Read && !op.gc && host_read_bytes_) bytes = host_read_bytes_;
    if (op.kind == ftl::FlashOp::Kind::Read && !op.gc && batch && batch->read_bytes[i]) bytes = batch->read_bytes[i];
    // Copyback: a GC read whose program (the next op, ordered after it) is on
    // the same die, and that program, move no data over the bus.
    if (cfg_.nand.copyback && op.gc) {
      const bool read_pair = op.kind == ftl::FlashOp::Kind::Read && i + 1 < work.ops.size() &&
                             work.ops[i + 1].after == int32_t(i) && g.die_of(work.ops[i + 1].ppn) == g.die_of(op.ppn);
      const bool program_pair = op.kind == ftl::FlashOp::Kind::Program && op.after >= 0 &&
                                g.die_of(work.ops[size_t(op.after)].ppn) == g.die_of(op.ppn);
      if (read_pair || program_pair) bytes = 0;
    }
    return bytes;
  };
  const auto on_flash = [&](size_t i) { return !plan || planned_[i].on_flash; };
  // The page's spare area names its LPN and version: what a rebuild reads.
  const auto programmed = [&](size_t i) {
    if (work.ops[i].kind == ftl::FlashOp::Kind::Program && planned_[i].written.lpn != UINT32_MAX)
      on_program_(planned_[i].written.lpn, planned_[i].written.version, done[i]);
  };
  if (!cfg_.nand.multiplane) {
    for (size_t i = 0; i < work.ops.size(); ++i) {
      done[i] = flash_op(work.ops[i], bytes_of(i), start_of(i), 1, UINT32_MAX, on_flash(i));
      all = std::max(all, done[i]);
      if (tracked) programmed(i);
    }
  } else {
    static thread_local std::vector<char> booked;
    static thread_local std::vector<size_t> with;
    booked.assign(work.ops.size(), 0);
    for (size_t i = 0; i < work.ops.size(); ++i) {
      if (booked[i]) continue;  // ran with an earlier op
      plane_partners(work.ops, i, booked, with);
      sc_time start = start_of(i);
      uint32_t bytes = bytes_of(i);
      uint32_t gc = work.ops[i].gc;
      for (size_t k : with) start = std::max(start, start_of(k)), bytes += bytes_of(k), gc += work.ops[k].gc;
      if (batch) host_lpn_ = batch->lpn[i];  // (activity labels: the group's first page)
      done[i] = flash_op(work.ops[i], bytes, start, uint32_t(with.size()) + 1, gc, on_flash(i));
      booked[i] = 1;
      for (size_t k : with) done[k] = done[i], booked[k] = 1;
      all = std::max(all, done[i]);
      if (tracked) {
        programmed(i);
        for (size_t k : with) programmed(k);
      }
    }
    if (batch) host_lpn_ = ssdtlm::PageData::kUnmapped;
  }
  if (merges) gc_free_at_ = all;
  if (work.drains_buffer) ftl_buffer_free_at_ = std::max(ftl_buffer_free_at_, all);
  return all;
}

uint64_t Controller::nand_commands(const std::vector<ftl::FlashOp>& ops, const std::vector<Planned>& plan) const {
  if (!packed_.enabled()) return ops.size();
  uint64_t n = 0;
  CompressedLayout::Span span[2];
  uint32_t first = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const ftl::FlashOp& op = ops[i];
    const uint32_t slot = fgeo_.page_in_block(op.ppn);
    if (op.kind == ftl::FlashOp::Kind::Erase) ++n;
    else if (op.kind == ftl::FlashOp::Kind::Program) n += packed_.completes(slot, &first);
    else if (plan[i].on_flash) n += packed_.spans(slot, span);
  }
  return n;
}

size_t Controller::head_of(const std::vector<ftl::FlashOp>& ops, size_t i) {
  if (!ops[i].sibling) return i;
  size_t h = i;
  while (h > 0 && !(ops[h].barrier && !ops[h].sibling)) --h;
  return h;
}

void Controller::plane_partners(const std::vector<ftl::FlashOp>& ops, size_t i, const std::vector<char>& booked,
                                std::vector<size_t>& with) const {
  with.clear();
  const ftl::FlashOp& op = ops[i];
  const uint32_t planes = cfg_.nand.geometry.planes_per_die;
  // An erase of a multi-plane block is already every plane's.
  if (planes == 1 || op.kind == ftl::FlashOp::Kind::Erase) return;
  const uint32_t page = fgeo_.page_in_block(op.ppn);
  uint32_t used = 1u << cfg_.nand.plane_of_page(page);
  // Partners sit close: a command's pages stripe over the dies, a GC
  // slice alternates reads and programs. Looking further costs time for
  // nothing.
  const size_t window = std::min(ops.size(), i + 1 + 2 * size_t(fgeo_.dies()) + 4 * planes);
  for (size_t k = i + 1; k < window && with.size() + 1 < planes; ++k) {
    const ftl::FlashOp& o = ops[k];
    // (A barrier waits for every op before it, not all run yet; a sibling
    // only for the ops before its head, all run if the head is not after op.)
    if (booked[k] || o.kind != op.kind || (o.barrier && !(o.sibling && head_of(ops, k) <= i)) ||
        fgeo_.block_of(o.ppn) != fgeo_.block_of(op.ppn))
      continue;
    const uint32_t p = fgeo_.page_in_block(o.ppn);
    const uint32_t bit = 1u << cfg_.nand.plane_of_page(p);
    if (cfg_.nand.physical_page(p) != cfg_.nand.physical_page(page) || (used & bit)) continue;
    if (o.after >= 0 && !booked[size_t(o.after)]) continue;  // it waits for an op not yet run (or this one)
    used |= bit;
    with.push_back(k);
  }
}

sc_time Controller::flash_op(const ftl::FlashOp& op, uint32_t bytes, const sc_time& at, uint32_t planes,
                             uint32_t gc_planes, bool on_flash) {
  const FlashGeometry& g = fgeo_;
  if (packed_.enabled() && op.kind != ftl::FlashOp::Kind::Erase) return packed_op(op, at, on_flash);
  // (An erase has no partners: a multi-plane block is erased on every plane.)
  if (op.kind == ftl::FlashOp::Kind::Erase && cfg_.nand.multiplane) planes = cfg_.nand.geometry.planes_per_die;
  if (gc_planes == UINT32_MAX || op.kind == ftl::FlashOp::Kind::Erase) gc_planes = op.gc ? planes : 0;
  return issue_flash(op, cfg_.nand.physical_page(g.page_in_block(op.ppn)), bytes, at, planes, gc_planes);
}

sc_time Controller::issue_flash(const ftl::FlashOp& op, uint32_t page, uint32_t bytes, const sc_time& at,
                                uint32_t planes, uint32_t gc_planes) {
  const FlashGeometry& g = fgeo_;
  const DieId die = g.die_of(op.ppn);
  flash_cmd_.kind = op.kind == ftl::FlashOp::Kind::Read      ? ssdtlm::FlashOpKind::Read
                    : op.kind == ftl::FlashOp::Kind::Program ? ssdtlm::FlashOpKind::Program
                                                             : ssdtlm::FlashOpKind::Erase;
  flash_cmd_.die = g.die_in_channel(die);
  flash_cmd_.page = page;
  flash_cmd_.planes = planes;
  flash_cmd_.bytes = bytes;
  flash_cmd_.gc = op.gc;
  flash_cmd_.gc_planes = gc_planes;
  flash_cmd_.ppn = op.ppn.v;
  flash_cmd_.lpn = op.gc ? ssdtlm::PageData::kUnmapped : op.lpn != ftl::FlashOp::kNoLpn ? op.lpn : host_lpn_;
  flash_cmd_.suspendable = suspendable_ && op.kind != ftl::FlashOp::Kind::Read;
  flash_cmd_.host_read = host_reading_ && op.kind == ftl::FlashOp::Kind::Read && !op.gc;
  const sc_time now = ssdtlm::sim_time();
  sc_time delay = at - now;
  flash[g.channel_of(die).v]->b_transport(flash_trans_, delay);
  if (!flash_cmd_.resumed.empty()) resumed(die.v, flash_cmd_.resumed);
  if (awaiting_ && flash_cmd_.suspendable) {
    AwaitedOps& live = awaited_[die.v];
    // The command's ops on this die come one after another (one command is
    // served at a time): keep the one that ends last (resumed() says why).
    if (!live.ops.empty() && live.ops.back().cmd == awaiting_) {
      live.ops.back().end = std::max(live.ops.back().end, now + delay);
      return now + delay;
    }
    if (live.ops.size() >= live.drop_at) {
      live.ops.erase(std::remove_if(live.ops.begin(), live.ops.end(), [&](const Awaited& a) { return a.end <= now; }),
                     live.ops.end());
      live.drop_at = std::max<size_t>(64, 2 * live.ops.size());
    }
    live.ops.push_back({now + delay, awaiting_});
  }
  return now + delay;
}

void Controller::resumed(uint32_t die, const std::vector<std::pair<sc_time, sc_time>>& moves) {
  // A read suspended ops on `die`: each that ended at `from` now ends at
  // `to`, and what waited for its end waits longer. A write-through command
  // whose flash work ended there completes that much later (its host is
  // told); the write cache's slots of the pages it programs stay held
  // (reads keep hitting them, FLUSH waits); idle-time GC issues its next op
  // at the old end and finds the die still busy.
  // `moves` is latest first (distinct ends, each moved later): one binary
  // search per live entry, not a scan of them per move (a read suspending a
  // queue of thousands of programs and erases moves them all).
  // An entry is a command's op that ends last on the die, not every op:
  // moves keep the die's order (each moved op starts where the one before
  // it now ends), so its last op still ends last, and an earlier one that
  // moves cannot end past it, so cannot delay the command. (One entry per
  // op made every read that suspends walk the whole queue: a read storm
  // behind a queue of 4 MiB writes on one die took minutes.)
  const auto by_from = [](const std::pair<sc_time, sc_time>& m, const sc_time& t) { return m.first > t; };
  for (Awaited& a : awaited_[die].ops) {
    const auto m = std::lower_bound(moves.begin(), moves.end(), a.end, by_from);
    if (m == moves.end() || m->first != a.end) continue;
    const sc_time& to = m->second;
    // Live: the op has not ended, so neither has the command.
    sc_time& done = flash_done_[a.cmd];
    if (to > done) {
      a.cmd->postponed += to - done;
      // A RAID member's command: the host's moves past its latest member.
      if (ssdtlm::HostCommand* host = a.cmd->parent) {
        a.cmd->completes += to - done;
        if (a.cmd->completes > host->completes)
          host->postponed += a.cmd->completes - host->completes, host->completes = a.cmd->completes;
      }
      done = to;
    }
    a.end = to;
  }
  if (cache_.enabled()) cache_.postpone(die, moves);
}

void Controller::plan_view(const std::vector<ftl::FlashOp>& ops, std::vector<Planned>& out) {
  out.assign(ops.size(), Planned{});
  // An op whose block a later op of the list erases saw the block as it was
  // before that erase: its fill then (the media keeps it) and what its page
  // was last programmed with.
  erased_blocks_.clear();
  for (size_t i = ops.size(); i-- > 0;) {
    const ftl::FlashOp& op = ops[i];
    const BlockId b = fgeo_.block_of(op.ppn);
    if (op.kind == ftl::FlashOp::Kind::Erase) {
      erased_blocks_.push_back(b.v);
      continue;
    }
    const bool program = op.kind == ftl::FlashOp::Kind::Program;
    if (program ? !on_program_ : !packed_.enabled()) continue;  // nobody asks about this op
    const bool erased_later = std::find(erased_blocks_.begin(), erased_blocks_.end(), b.v) != erased_blocks_.end();
    if (program) {
      out[i].written = erased_later ? media_.last_programmed(op.ppn) : media_.read(op.ppn);
    } else {
      // The slot is still in the buffer while the flash page it ends in is
      // not programmed, i.e. while the slot completing that page is not.
      CompressedLayout::Span span[2];
      const uint32_t n = packed_.spans(fgeo_.page_in_block(op.ppn), span);
      const uint32_t completing = packed_.completing_slot(span[n - 1].page);
      out[i].on_flash = erased_later ? completing < media_.fill_before_erase(b)
                                     : media_.is_programmed(Ppn(fgeo_.first_page(b).v + completing));
    }
  }
}

sc_time Controller::packed_op(const ftl::FlashOp& op, const sc_time& at, bool on_flash) {
  // The op is on a slot (a compressed host page); the flash works on the
  // pages it completes (a program) or lies in (a read).
  const uint32_t slot = fgeo_.page_in_block(op.ppn);
  sc_time done = at;
  if (op.kind == ftl::FlashOp::Kind::Program) {
    uint32_t first = 0;
    const uint32_t n = packed_.completes(slot, &first);
    for (uint32_t q = first; q < first + n; ++q)
      done = std::max(done, issue_flash(op, q, cfg_.nand.geometry.page_size, done, 1, op.gc));
    return done;  // n = 0: the slot waits in the controller's buffer
  }
  if (!on_flash) return at;  // still in the controller's buffer: no flash access
  CompressedLayout::Span span[2];
  const uint32_t n = packed_.spans(slot, span);
  for (uint32_t k = 0; k < n; ++k) done = std::max(done, issue_flash(op, span[k].page, span[k].bytes, at, 1, op.gc));
  return done;
}

}  // namespace ssd
