#include "model/controller/controller.h"

#include <algorithm>

#include "model/sim/log.h"
#include "model/sim/random.h"

namespace ssd {

using ssdtlm::HostCommand;
using ssdtlm::HostOp;

ftl::FtlParams ftl_params(const SimConfig& cfg) {
  ftl::FtlParams p;
  p.geometry = cfg.nand.geometry;
  p.over_provisioning = cfg.ftl_op;
  p.gc_threshold = cfg.gc_threshold;
  p.map_entry_bytes = cfg.dram.map_entry_bytes;
  p.dram_bytes = cfg.dram.size - cfg.dram.write_cache;
  p.options = cfg.ftl_options;
  p.cycles = cfg.cpu.ftl;
  p.seed = cfg.seed;
  return p;
}

Controller::Controller(sc_core::sc_module_name name, const SimConfig& cfg)
    : sc_module(name), host("host"), dram("dram"), flash("flash"), cfg_(cfg), log_(log::get(this->name())),
      cpu_("cpu", cfg.cpu),
      media_(cfg.nand.geometry, cfg.track_content),
      ftl_(ftl::FtlRegistry::instance().create(cfg.ftl_name, ftl_params(cfg), media_)),
      cache_(cfg.dram.size ? cfg.dram.write_cache / cfg.nand.geometry.page_size : 0) {
  host.register_b_transport(this, &Controller::b_transport);
  if (cfg.idle_after != sc_core::SC_ZERO_TIME) sc_core::sc_spawn([this] { background(); }, "background");
  flash_trans_.set_extension(&flash_cmd_);
  dram_trans_.set_extension(&dram_cmd_);
}

Controller::~Controller() {
  // The extensions are members, not heap objects: detach before the payloads die.
  flash_trans_.clear_extension(&flash_cmd_);
  dram_trans_.clear_extension(&dram_cmd_);
}

std::string Controller::dram_shortfall() const {
  if (cfg_.dram.size == 0) return "";  // DRAM-less: the tables live in controller SRAM
  const uint64_t need = ftl_->map_bytes() + cache_.capacity() * cfg_.nand.geometry.page_size;
  if (need <= cfg_.dram.size) return "";
  return std::to_string(cfg_.dram.size) + " bytes of DRAM cannot hold the " + cfg_.ftl_name + " FTL's mapping table (" +
         std::to_string(ftl_->map_bytes()) + " bytes)" +
         (cache_.enabled() ? " plus the write cache (" + std::to_string(cache_.capacity() * cfg_.nand.geometry.page_size) +
                                 " bytes)"
                           : std::string());
}

void Controller::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  serve(trans, delay);
  // Background work waits for the host to be quiet from its last completion.
  last_host_done_ = std::max(last_host_done_, sc_core::sc_time_stamp() + delay);
  if (cfg_.idle_after != sc_core::SC_ZERO_TIME) host_event_.notify();  // only the idle loop waits on it
}

void Controller::begin(const HostCommand& cmd, uint64_t first, uint64_t last) {
  const ftl::HostRun::Op op = cmd.op == HostOp::Read    ? ftl::HostRun::Op::Read
                              : cmd.op == HostOp::Write ? ftl::HostRun::Op::Write
                                                        : ftl::HostRun::Op::Trim;
  uint64_t& next = next_lpn_[size_t(op)];
  ftl_->begin_command({op, first, last - first + 1, first == next});
  next = last + 1;
}

void Controller::background() {
  // The firmware's idle loop: once the host has been quiet for idle_after,
  // ask the FTL for a slice of background work and issue its NAND ops one at
  // a time (a host command arriving meanwhile books its ops between them, so
  // it waits at most for the op in flight on its die); repeat while quiet.
  ftl::FtlWork work;
  std::vector<sc_time> done;
  const FlashGeometry& g = cfg_.nand.geometry;
  for (;;) {
    const sc_time now = sc_core::sc_time_stamp(), quiet_at = last_host_done_ + cfg_.idle_after;
    if (now < quiet_at) {
      sc_core::wait(quiet_at - now, host_event_);
      continue;
    }
    work.clear();
    if (!ftl_->background(work)) {
      sc_core::wait(host_event_);  // nothing to do until the host gives the FTL more
      continue;
    }
    ++background_slices_;
    sc_time t = charge(work, now);
    t = cpu_.execute(t, cfg_.cpu.page_cycles * work.ops.size());
    done.assign(work.ops.size(), sc_core::SC_ZERO_TIME);
    // What each program writes, read now: the slice's ops run over time,
    // while the host's commands may change the media meanwhile.
    std::vector<PageContent> written;
    if (on_program_)
      for (const ftl::FlashOp& op : work.ops)
        written.push_back(op.kind == ftl::FlashOp::Kind::Program ? media_.read(op.ppn) : PageContent{});
    sc_time all = t;
    for (size_t i = 0; i < work.ops.size(); ++i) {
      const ftl::FlashOp& op = work.ops[i];
      sc_time start = std::max(t, sc_core::sc_time_stamp());
      if (op.after >= 0) start = std::max(start, done[size_t(op.after)]);
      if (op.barrier) start = std::max(start, all);
      done[i] = flash_op(op, op.kind == ftl::FlashOp::Kind::Erase ? 0 : g.page_size, start);
      all = std::max(all, done[i]);
      if (on_program_ && written[i].lpn != UINT32_MAX) on_program_(written[i].lpn, written[i].version, done[i]);
      sc_core::wait(done[i] - sc_core::sc_time_stamp());  // the op runs; then the next is issued
    }
  }
}

void Controller::serve(tlm::tlm_generic_payload& trans, sc_time& delay) {
  HostCommand& cmd = *trans.get_extension<HostCommand>();
  const sc_time now = sc_core::sc_time_stamp();
  const uint32_t page = cfg_.nand.geometry.page_size;
  sc_time t = cpu_.execute(now + delay, cfg_.cpu.decode_cycles);
  sc_time done = t;

  // (The SATA interface has refused commands beyond the capacity.)
  const uint64_t first = cmd.offset / page;
  const uint64_t last = cmd.bytes ? (cmd.offset + cmd.bytes - 1) / page : first;
  const uint64_t tag = cmd.data_tag;
  if (cmd.op != HostOp::Flush && cmd.bytes && (cmd.op != HostOp::Trim || cfg_.trim)) begin(cmd, first, last);
  switch (cmd.op) {
    case HostOp::Read:
      cmd.ready.clear();
      cmd.content.clear();
      for (uint64_t l = first; l <= last; ++l) {
        const uint64_t from = std::max(cmd.offset, l * page), to = std::min(cmd.offset + cmd.bytes, (l + 1) * page);
        const sc_time r = read_page(uint32_t(l), uint32_t(to - from), t, cfg_.track_content ? &cmd.content : nullptr);
        cmd.ready.push_back({std::min(cmd.bytes, (l + 1) * page - cmd.offset), r});
        done = std::max(done, r);
      }
      break;
    case HostOp::Write: {
      // The SATA interface already moved the data over the link: stage it in DRAM.
      t = dram_access(uint32_t(cmd.bytes), t);
      if (cache_.enabled()) return write_back(cmd, t, delay, trans);
      done = t;
      for (uint64_t l = first; l <= last; ++l)
        done = std::max(done, write_page(uint32_t(l), partial_page(cmd, l), t, tag));
      break;
    }
    case HostOp::Trim:
      if (!cfg_.trim) {  // no TRIM support: the data stays mapped
        ++trims_ignored_;
        done = t;
        break;
      }
      for (uint64_t l = first; l <= last; ++l) {
        if (partial_page(cmd, l)) continue;  // only whole pages can be unmapped
        work_.clear();
        ftl_->trim(Lpn(uint32_t(l)), work_);
        if (cache_.enabled()) cache_.forget(uint32_t(l));
        t = charge(work_, t);
        // An FTL may need flash work to unmap (a map-page read, a merge):
        // the TRIM completes when it is done.
        if (!work_.ops.empty()) t = run_flash(work_, t);
      }
      done = t;
      break;
    case HostOp::Flush:
      done = std::max(t, cache_.drained_at());
      break;
  }
  done = cpu_.execute(done, cfg_.cpu.complete_cycles);
  delay = done - now;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

sc_time Controller::read_page(uint32_t lpn, uint32_t bytes, const sc_time& at,
                              std::vector<ssdtlm::PageData>* content) {
  // With partial reads, only the sectors the host asked for cross the bus
  // and the DRAM port (the array still reads the whole page).
  const uint32_t page = cfg_.nand.partial_read ? (bytes + 511) / 512 * 512 : cfg_.nand.geometry.page_size;
  if (const WriteCache::Entry* hit = cache_.enabled() ? cache_.holds(lpn, sc_core::sc_time_stamp()) : nullptr) {
    cache_.count_hit();
    if (content) content->push_back({lpn, hit->tag});
    return dram_access(page, cpu_.execute(at, cfg_.cpu.ftl.lookup));
  }
  work_.clear();
  ftl_->read(Lpn(lpn), work_);
  if (content) content->push_back(page_data(work_));
  const sc_time issued = charge(work_, at);
  if (work_.ops.empty()) return issued;  // unmapped: zeros, no flash access
  host_read_bytes_ = page;
  host_lpn_ = lpn;
  const sc_time flash_done = run_flash(work_, issued);
  host_read_bytes_ = 0;
  host_lpn_ = ssdtlm::PageData::kUnmapped;
  return dram_access(page, flash_done);
}

ssdtlm::PageData Controller::page_data(const ftl::FtlWork& work) const {
  PageContent c;
  if (!work.returns(media_, c)) return {};  // unmapped
  return {c.lpn, c.version};
}

bool Controller::partial_page(const HostCommand& cmd, uint64_t lpn) const {
  const uint64_t page = cfg_.nand.geometry.page_size;
  return cmd.offset > lpn * page || cmd.offset + cmd.bytes < (lpn + 1) * page;
}

void Controller::write_back(HostCommand& cmd, const sc_time& staged, sc_time& delay, tlm::tlm_generic_payload& trans) {
  // Write-back: the host's completion goes out once every page has a cache
  // slot; destaging (FTL work and programs) follows on the firmware's time.
  const uint32_t page = cfg_.nand.geometry.page_size;
  const uint64_t first = cmd.offset / page, last = (cmd.offset + cmd.bytes - 1) / page;
  static thread_local std::vector<sc_time> slots;
  slots.clear();
  sc_time ack = staged;
  for (uint64_t l = first; l <= last; ++l) ack = std::max(ack, slots.emplace_back(cache_.admit(staged)));
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time done = cpu_.execute(ack, cfg_.cpu.complete_cycles);
  for (uint64_t l = first; l <= last; ++l) {
    const sc_time slot = slots[l - first];
    cache_.insert(uint32_t(l), write_page(uint32_t(l), partial_page(cmd, l), slot, cmd.data_tag), cmd.data_tag);
  }
  delay = done - now;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

sc_time Controller::write_page(uint32_t lpn, bool partial, const sc_time& at, uint64_t tag) {
  struct HostPage {  // labels this page's NAND ops in activity traces
    uint64_t& lpn;
    ~HostPage() { lpn = ssdtlm::PageData::kUnmapped; }
  } host_page{host_lpn_ = lpn};
  sc_time t = at;
  if (partial) {
    // Read-modify-write: the untouched part of the page comes from flash.
    work_.clear();
    ftl_->read(Lpn(lpn), work_);
    t = charge(work_, t);
    if (!work_.ops.empty()) t = dram_access(cfg_.nand.geometry.page_size, run_flash(work_, t));
  }
  work_.clear();
  const uint64_t gc_before = ftl_->stats().gc_runs;
  ftl_->write(Lpn(lpn), tag ? tag : ++version_, work_);
  if (on_program_ && !ftl_buffered_ && work_.record_ops &&  // (only a power-fail run asks)
      std::none_of(work_.ops.begin(), work_.ops.end(),
                   [](const ftl::FlashOp& op) { return !op.gc && op.kind == ftl::FlashOp::Kind::Program; }))
    ftl_buffered_ = true;
  if (ftl_->stats().gc_runs != gc_before)
    log_->debug("write of LPN {} ran {} GC victim(s): {} flash ops", lpn, ftl_->stats().gc_runs - gc_before,
                work_.ops.size());
  return run_flash(work_, charge(work_, t));
}

sc_time Controller::charge(const ftl::FtlWork& work, const sc_time& at) {
  sc_time t = cpu_.execute(at, work.cpu_cycles);
  const uint32_t entries = work.map_reads + work.map_writes;
  if (entries) t = dram_access(entries * cfg_.dram.map_entry_bytes, t);
  return t;
}

sc_time Controller::run_flash(const ftl::FtlWork& work, const sc_time& at) {
  // The firmware builds every NAND command of the list up front; the flash
  // controller's sequencer then runs them as their dependencies allow.
  const sc_time issued = cpu_.execute(at, cfg_.cpu.page_cycles * work.ops.size());
  // Completion time of each op, for the dependencies the FTL declared.
  static thread_local std::vector<sc_time> done;
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
  for (size_t i = 0; i < work.ops.size(); ++i) {
    const ftl::FlashOp& op = work.ops[i];
    sc_time start = gc_free;
    if (op.after >= 0) start = std::max(start, done[size_t(op.after)]);
    if (op.barrier) start = all;
    uint32_t bytes = op.kind == ftl::FlashOp::Kind::Erase ? 0 : g.page_size;
    if (op.kind == ftl::FlashOp::Kind::Read && !op.gc && host_read_bytes_) bytes = host_read_bytes_;
    // Copyback: a GC read whose program (the next op, ordered after it) is on
    // the same die, and that program, move no data over the bus.
    if (cfg_.nand.copyback && op.gc) {
      const bool read_pair = op.kind == ftl::FlashOp::Kind::Read && i + 1 < work.ops.size() &&
                             work.ops[i + 1].after == int32_t(i) && g.die_of(work.ops[i + 1].ppn) == g.die_of(op.ppn);
      const bool program_pair = op.kind == ftl::FlashOp::Kind::Program && op.after >= 0 &&
                                g.die_of(work.ops[size_t(op.after)].ppn) == g.die_of(op.ppn);
      if (read_pair || program_pair) bytes = 0;
    }
    done[i] = flash_op(op, bytes, start);
    all = std::max(all, done[i]);
    // The page's spare area names its LPN and version: what a rebuild reads.
    if (on_program_ && op.kind == ftl::FlashOp::Kind::Program) {
      const PageContent c = media_.read(op.ppn);
      if (c.lpn != UINT32_MAX) on_program_(c.lpn, c.version, done[i]);
    }
  }
  if (merges) gc_free_at_ = all;
  return all;
}

sc_time Controller::flash_op(const ftl::FlashOp& op, uint32_t bytes, const sc_time& at) {
  const FlashGeometry& g = cfg_.nand.geometry;
  const DieId die = g.die_of(op.ppn);
  flash_cmd_.kind = op.kind == ftl::FlashOp::Kind::Read      ? ssdtlm::FlashOpKind::Read
                    : op.kind == ftl::FlashOp::Kind::Program ? ssdtlm::FlashOpKind::Program
                                                             : ssdtlm::FlashOpKind::Erase;
  flash_cmd_.die = g.die_in_channel(die);
  flash_cmd_.page = g.page_in_block(op.ppn);
  flash_cmd_.bytes = bytes;
  flash_cmd_.gc = op.gc;
  flash_cmd_.ppn = op.ppn.v;
  flash_cmd_.lpn = op.gc ? ssdtlm::PageData::kUnmapped : host_lpn_;
  const sc_time now = sc_core::sc_time_stamp();
  sc_time delay = at - now;
  flash[g.channel_of(die).v]->b_transport(flash_trans_, delay);
  return now + delay;
}

sc_time Controller::dram_access(uint32_t bytes, const sc_time& at) {
  if (cfg_.dram.size == 0) return at;  // DRAM-less: data and tables stay in controller SRAM
  dram_cmd_.bytes = bytes;
  const sc_time now = sc_core::sc_time_stamp();
  sc_time delay = at - now;
  dram->b_transport(dram_trans_, delay);
  return now + delay;
}

}  // namespace ssd
