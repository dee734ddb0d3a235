#include "model/controller/controller.h"

#include <algorithm>

#include "model/sim/log.h"
#include "model/sim/random.h"

namespace ssd {

using ssdtlm::HostCommand;
using ssdtlm::HostOp;

ftl::FtlParams ftl_params(const SimConfig& cfg) {
  ftl::FtlParams p;
  p.geometry = cfg.nand.ftl_geometry();
  p.over_provisioning = cfg.ftl_op;
  p.gc_threshold = cfg.gc_threshold;
  p.map_entry_bytes = cfg.dram.map_entry_bytes;
  p.dram_bytes = cfg.dram.size - cfg.dram.write_cache;
  p.options = cfg.ftl_options;
  p.cycles = cfg.cpu.ftl;
  p.seed = cfg.seed;
  p.die_pages = cfg.nand.multiplane ? cfg.nand.geometry.planes_per_die : 1;
  // Packed pages (compression, a map unit): the FTL's smaller pages keep the
  // host's capacity, in host pages.
  if (cfg.nand.compressed_bytes)
    p.user_pages = ftl::user_pages_for(cfg.nand.geometry, cfg.ftl_op) * (cfg.nand.geometry.page_size / cfg.nand.host_page());
  return p;
}

Controller::Controller(sc_core::sc_module_name name, const SimConfig& cfg)
    : sc_module(name), host("host"), dram("dram"), flash("flash"), cfg_(cfg), fgeo_(cfg.nand.ftl_geometry()),
      packed_(cfg.nand.geometry.page_size, cfg.nand.geometry.pages_per_block, cfg.nand.compressed_bytes),
      log_(log::get(this->name())), cpu_("cpu", cfg.cpu),
      media_(fgeo_, cfg.track_content),
      ftl_(ftl::FtlRegistry::instance().create(cfg.ftl_name, ftl_params(cfg), media_)),
      cache_(cfg.dram.size ? cfg.dram.write_cache / cfg.nand.host_page() : 0) {
  host.register_b_transport(this, &Controller::b_transport);
  if (cfg.idle_after != sc_core::SC_ZERO_TIME) {
    if (cfg.idle_dies > 1) bg_busy_.assign(fgeo_.dies(), 0);
    for (uint32_t w = 0; w < cfg.idle_dies; ++w)
      sc_core::sc_spawn([this] { background(); }, w ? ("background_" + std::to_string(w)).c_str() : "background");
  }
  flash_trans_.set_extension(&flash_cmd_);
  dram_trans_.set_extension(&dram_cmd_);
  if (cfg.nand.suspend) awaited_.assign(fgeo_.dies(), {});
}

Controller::~Controller() {
  // The extensions are members, not heap objects: detach before the payloads die.
  flash_trans_.clear_extension(&flash_cmd_);
  dram_trans_.clear_extension(&dram_cmd_);
}

std::string Controller::dram_shortfall() const {
  if (cfg_.dram.size == 0) return "";  // DRAM-less: the tables live in controller SRAM
  const uint64_t need = ftl_->map_bytes() + cache_.capacity() * cfg_.nand.host_page();
  if (need <= cfg_.dram.size) return "";
  return std::to_string(cfg_.dram.size) + " bytes of DRAM cannot hold the " + cfg_.ftl_name + " FTL's mapping table (" +
         std::to_string(ftl_->map_bytes()) + " bytes)" +
         (cache_.enabled() ? " plus the write cache (" + std::to_string(cache_.capacity() * cfg_.nand.host_page()) +
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
  // With ftl.idle_dies = N, N such loops run, each telling the FTL which
  // dies the others' slices occupy (bg_busy_); one that finds no work sleeps
  // until the host's next command.
  ftl::FtlWork work;
  std::vector<sc_time> done;
  std::vector<uint32_t> mine;  // the dies of this loop's slice (idle_dies > 1)
  const FlashGeometry& g = cfg_.nand.geometry;
  for (;;) {
    const sc_time now = sc_core::sc_time_stamp(), quiet_at = last_host_done_ + cfg_.idle_after;
    if (now < quiet_at) {
      sc_core::wait(quiet_at - now, host_event_);
      continue;
    }
    work.clear();
    if (!bg_busy_.empty()) work.busy_dies = &bg_busy_;
    if (!ftl_->background(work)) {
      sc_core::wait(host_event_);  // nothing to do until the host gives the FTL more
      continue;
    }
    ++background_slices_;
    if (!bg_busy_.empty()) {
      mine.clear();
      for (const ftl::FlashOp& op : work.ops) mine.push_back(fgeo_.die_of(op.ppn).v);
      std::sort(mine.begin(), mine.end());
      mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
      for (uint32_t d : mine) ++bg_busy_[d];
    }
    sc_time t = charge(work, now);
    t = cpu_.execute(t, cfg_.cpu.page_cycles * work.ops.size());
    done.assign(work.ops.size(), sc_core::SC_ZERO_TIME);
    // What each program writes, read now: the slice's ops run over time,
    // while the host's commands may change the media meanwhile.
    std::vector<PageContent> written;
    if (on_program_)
      for (const ftl::FlashOp& op : work.ops)
        written.push_back(op.kind == ftl::FlashOp::Kind::Program ? media_.read(op.ppn) : PageContent{});
    sc_time all = t, barrier_from = t, siblings_end = sc_core::SC_ZERO_TIME;
    for (size_t i = 0; i < work.ops.size(); ++i) {
      const ftl::FlashOp& op = work.ops[i];
      sc_time start = std::max(t, sc_core::sc_time_stamp());
      if (op.after >= 0) start = std::max(start, done[size_t(op.after)]);
      if (op.barrier && !op.sibling) barrier_from = all;
      if (op.barrier) start = std::max(start, barrier_from);
      suspendable_ = cfg_.nand.suspend;  // nobody waits for its end but this loop
      done[i] = flash_op(op, op.kind == ftl::FlashOp::Kind::Erase ? 0 : g.page_size, start);
      suspendable_ = false;
      all = std::max(all, done[i]);
      if (on_program_ && written[i].lpn != UINT32_MAX) on_program_(written[i].lpn, written[i].version, done[i]);
      // The op runs; then the next is issued (a sibling at once, beside it).
      siblings_end = std::max(siblings_end, done[i]);
      if (i + 1 < work.ops.size() && work.ops[i + 1].sibling) continue;
      sc_core::wait(siblings_end - sc_core::sc_time_stamp());
      siblings_end = sc_core::SC_ZERO_TIME;
    }
    if (!bg_busy_.empty())
      for (uint32_t d : mine) --bg_busy_[d];
  }
}

void Controller::serve(tlm::tlm_generic_payload& trans, sc_time& delay) {
  HostCommand& cmd = *trans.get_extension<HostCommand>();
  const sc_time now = sc_core::sc_time_stamp();
  const uint32_t page = cfg_.nand.host_page();
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
      host_reading_ = cfg_.nand.suspend;  // its reads (data and map pages) may suspend a program or erase
      for (uint64_t l = first; l <= last;) {
        const uint32_t n = uint32_t(std::min<uint64_t>(group_pages(), last - l + 1));
        sc_time ends[16];
        read_pages(cmd, l, n, t, ends);
        for (uint32_t k = 0; k < n; ++k) {
          cmd.ready.push_back({std::min(cmd.bytes, (l + k + 1) * page - cmd.offset), ends[k]});
          done = std::max(done, ends[k]);
        }
        l += n;
      }
      host_reading_ = false;
      break;
    case HostOp::Write: {
      // The SATA interface already moved the data over the link: stage it in DRAM.
      t = dram_access(uint32_t(cmd.bytes), t);
      if (cache_.enabled()) return write_back(cmd, t, delay, trans);
      done = t;
      // nand.suspend: the command's programs may be suspended by a read; the
      // host is then told to wait longer (resumed()), if it can be told.
      suspendable_ = cfg_.nand.suspend && cmd.postponable;
      awaiting_ = suspendable_ ? &cmd : nullptr;
      for (uint64_t l = first; l <= last;) {
        const uint32_t n = uint32_t(std::min<uint64_t>(group_pages(), last - l + 1));
        sc_time at[16], ends[16];
        std::fill(at, at + n, t);
        write_pages(cmd, l, n, at, tag, ends);
        for (uint32_t k = 0; k < n; ++k) done = std::max(done, ends[k]);
        l += n;
      }
      suspendable_ = false;
      if (awaiting_) flash_done_[awaiting_] = done, awaiting_ = nullptr;
      break;
    }
    case HostOp::Trim:
      if (!cfg_.trim) {  // no TRIM support: the data stays mapped
        ++trims_ignored_;
        done = t;
        break;
      }
      // (nand.suspend: its flash work, DFTL's map pages, is not suspended.)
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
  const uint32_t page = bytes;  // what crosses the bus and the DRAM port (host_bytes)
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

uint32_t Controller::host_bytes(const HostCommand& cmd, uint64_t lpn) const {
  const uint64_t page = cfg_.nand.host_page();
  const uint64_t from = std::max(cmd.offset, lpn * page), to = std::min(cmd.offset + cmd.bytes, (lpn + 1) * page);
  // With partial reads, only the sectors the host asked for cross the bus
  // and the DRAM port (the array still reads the whole page).
  return cfg_.nand.partial_read ? uint32_t((to - from + 511) / 512 * 512) : uint32_t(page);
}

void Controller::read_pages(HostCommand& cmd, uint64_t first, uint32_t n, const sc_time& at, sc_time* ends) {
  std::vector<ssdtlm::PageData>* content = cfg_.track_content ? &cmd.content : nullptr;
  if (n == 1) {
    ends[0] = read_page(uint32_t(first), host_bytes(cmd, first), at, content);
    return;
  }
  // Each page through the FTL (a write-cache hit is served from DRAM), then
  // the group's flash reads as one list, so pages on the planes of a die
  // run as multi-plane reads.
  batch_work_.ops.clear();
  batch_.clear();
  sc_time issue = at;
  uint32_t bounds[17];  // page k's ops are [bounds[k], bounds[k + 1])
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t lpn = uint32_t(first + k), bytes = host_bytes(cmd, lpn);
    bounds[k] = uint32_t(batch_work_.ops.size());
    if (const WriteCache::Entry* hit = cache_.enabled() ? cache_.holds(lpn, sc_core::sc_time_stamp()) : nullptr) {
      cache_.count_hit();
      if (content) content->push_back({lpn, hit->tag});
      ends[k] = dram_access(bytes, cpu_.execute(at, cfg_.cpu.ftl.lookup));
      continue;
    }
    work_.clear();
    ftl_->read(Lpn(lpn), work_);
    if (content) content->push_back(page_data(work_));
    ends[k] = charge(work_, at);  // unmapped (no ops): zeros, no flash access
    issue = std::max(issue, ends[k]);
    for (ftl::FlashOp op : work_.ops) {
      if (op.after >= 0) op.after += int32_t(bounds[k]);
      batch_work_.ops.push_back(op);
      batch_.page_start.push_back(bounds[k]);
      batch_.lpn.push_back(lpn);
      batch_.read_bytes.push_back(bytes);
    }
  }
  bounds[n] = uint32_t(batch_work_.ops.size());
  if (batch_work_.ops.empty()) return;
  run_flash(batch_work_, issue, &batch_);
  for (uint32_t k = 0; k < n; ++k) {
    if (bounds[k] == bounds[k + 1]) continue;  // a cache hit or an unmapped page
    sc_time flash_done = issue;
    for (uint32_t j = bounds[k]; j < bounds[k + 1]; ++j) flash_done = std::max(flash_done, done_[j]);
    ends[k] = dram_access(host_bytes(cmd, first + k), flash_done);
  }
}

ssdtlm::PageData Controller::page_data(const ftl::FtlWork& work) const {
  PageContent c;
  if (!work.returns(media_, c)) return {};  // unmapped
  return {c.lpn, c.version};
}

bool Controller::partial_page(const HostCommand& cmd, uint64_t lpn) const {
  const uint64_t page = cfg_.nand.host_page();
  return cmd.offset > lpn * page || cmd.offset + cmd.bytes < (lpn + 1) * page;
}

void Controller::write_back(HostCommand& cmd, const sc_time& staged, sc_time& delay, tlm::tlm_generic_payload& trans) {
  // Write-back: the host's completion goes out once every page has a cache
  // slot; destaging (FTL work and programs) follows on the firmware's time.
  const uint32_t page = cfg_.nand.host_page();
  const uint64_t first = cmd.offset / page, last = (cmd.offset + cmd.bytes - 1) / page;
  static thread_local std::vector<sc_time> slots;
  slots.clear();
  sc_time ack = staged;
  for (uint64_t l = first; l <= last; ++l) ack = std::max(ack, slots.emplace_back(cache_.admit(staged)));
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time done = cpu_.execute(ack, cfg_.cpu.complete_cycles);
  for (uint64_t l = first; l <= last;) {
    const uint32_t n = uint32_t(std::min<uint64_t>(group_pages(), last - l + 1));
    sc_time ends[16];
    suspendable_ = cfg_.nand.suspend;  // the host has its completion: a read may suspend the destage
    write_pages(cmd, l, n, &slots[l - first], cmd.data_tag, ends);
    suspendable_ = false;
    for (uint32_t k = 0; k < n; ++k) cache_.insert(uint32_t(l + k), ends[k], cmd.data_tag);
    l += n;
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
    if (!work_.ops.empty()) t = dram_access(cfg_.nand.host_page(), run_flash(work_, t));
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

void Controller::write_pages(const HostCommand& cmd, uint64_t first, uint32_t n, const sc_time* at, uint64_t tag,
                             sc_time* ends) {
  if (n == 1) {
    ends[0] = write_page(uint32_t(first), partial_page(cmd, first), at[0], tag);
    return;
  }
  // Each page through the FTL (its firmware time on the CPU, as one page
  // alone), then the group's flash work as one list, so its pages on the
  // planes of a die run as multi-plane operations.
  batch_work_.ops.clear();
  batch_.clear();
  sc_time issue = at[0];
  uint32_t bounds[17];  // page k's ops are [bounds[k], bounds[k + 1]) (planes_per_die <= 16)
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t lpn = uint32_t(first + k);
    sc_time t = at[k];
    if (partial_page(cmd, lpn)) {  // read-modify-write: the untouched part comes from flash first
      work_.clear();
      ftl_->read(Lpn(lpn), work_);
      t = charge(work_, t);
      host_lpn_ = lpn;
      if (!work_.ops.empty()) t = dram_access(cfg_.nand.host_page(), run_flash(work_, t));
      host_lpn_ = ssdtlm::PageData::kUnmapped;
    }
    work_.clear();
    ftl_->write(Lpn(lpn), tag ? tag : ++version_, work_);
    if (on_program_ && !ftl_buffered_ && work_.record_ops &&
        std::none_of(work_.ops.begin(), work_.ops.end(),
                     [](const ftl::FlashOp& op) { return !op.gc && op.kind == ftl::FlashOp::Kind::Program; }))
      ftl_buffered_ = true;
    issue = std::max(issue, charge(work_, t));
    bounds[k] = uint32_t(batch_work_.ops.size());
    for (ftl::FlashOp op : work_.ops) {
      if (op.after >= 0) op.after += int32_t(bounds[k]);
      batch_work_.ops.push_back(op);
      batch_.page_start.push_back(bounds[k]);
      batch_.lpn.push_back(op.gc ? ssdtlm::PageData::kUnmapped : lpn);
      batch_.read_bytes.push_back(0);
    }
  }
  bounds[n] = uint32_t(batch_work_.ops.size());
  run_flash(batch_work_, issue, &batch_);
  for (uint32_t k = 0; k < n; ++k) {
    ends[k] = issue;
    for (uint32_t j = bounds[k]; j < bounds[k + 1]; ++j) ends[k] = std::max(ends[k], done_[j]);
  }
}

sc_time Controller::charge(const ftl::FtlWork& work, const sc_time& at) {
  sc_time t = cpu_.execute(at, work.cpu_cycles);
  const uint32_t entries = work.map_reads + work.map_writes;
  if (entries) t = dram_access(entries * cfg_.dram.map_entry_bytes, t);
  return t;
}

sc_time Controller::run_flash(const ftl::FtlWork& work, const sc_time& at, const Batch* batch) {
  // The firmware builds every NAND command of the list up front; the flash
  // controller's sequencer then runs them as their dependencies allow.
  const sc_time issued = cpu_.execute(at, cfg_.cpu.page_cycles * work.ops.size());
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
    // A barrier's siblings wait for what it waits for: the ops before the first.
    size_t first = i;
    while (op.barrier && first > 0 && work.ops[first].sibling) --first;
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
  // The page's spare area names its LPN and version: what a rebuild reads.
  const auto programmed = [&](size_t i) {
    if (on_program_ && work.ops[i].kind == ftl::FlashOp::Kind::Program) {
      const PageContent c = media_.read(work.ops[i].ppn);
      if (c.lpn != UINT32_MAX) on_program_(c.lpn, c.version, done[i]);
    }
  };
  if (!cfg_.nand.multiplane) {
    for (size_t i = 0; i < work.ops.size(); ++i) {
      done[i] = flash_op(work.ops[i], bytes_of(i), start_of(i));
      all = std::max(all, done[i]);
      programmed(i);
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
      for (size_t k : with) start = std::max(start, start_of(k)), bytes += bytes_of(k);
      if (batch) host_lpn_ = batch->lpn[i];  // (activity labels: the group's first page)
      done[i] = flash_op(work.ops[i], bytes, start, uint32_t(with.size()) + 1);
      booked[i] = 1;
      for (size_t k : with) done[k] = done[i], booked[k] = 1;
      all = std::max(all, done[i]);
      programmed(i);
      for (size_t k : with) programmed(k);
    }
    if (batch) host_lpn_ = ssdtlm::PageData::kUnmapped;
  }
  if (merges) gc_free_at_ = all;
  return all;
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
    if (booked[k] || o.kind != op.kind || o.barrier || fgeo_.block_of(o.ppn) != fgeo_.block_of(op.ppn)) continue;
    const uint32_t p = fgeo_.page_in_block(o.ppn);
    const uint32_t bit = 1u << cfg_.nand.plane_of_page(p);
    if (cfg_.nand.physical_page(p) != cfg_.nand.physical_page(page) || (used & bit)) continue;
    if (o.after >= 0 && !booked[size_t(o.after)]) continue;  // it waits for an op not yet run (or this one)
    used |= bit;
    with.push_back(k);
  }
}

sc_time Controller::flash_op(const ftl::FlashOp& op, uint32_t bytes, const sc_time& at, uint32_t planes) {
  const FlashGeometry& g = fgeo_;
  if (packed_.enabled() && op.kind != ftl::FlashOp::Kind::Erase) return packed_op(op, at);
  if (op.kind == ftl::FlashOp::Kind::Erase && cfg_.nand.multiplane) planes = cfg_.nand.geometry.planes_per_die;
  return issue_flash(op, cfg_.nand.physical_page(g.page_in_block(op.ppn)), bytes, at, planes);
}

sc_time Controller::issue_flash(const ftl::FlashOp& op, uint32_t page, uint32_t bytes, const sc_time& at,
                                uint32_t planes) {
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
  flash_cmd_.ppn = op.ppn.v;
  flash_cmd_.lpn = op.gc ? ssdtlm::PageData::kUnmapped : host_lpn_;
  flash_cmd_.suspendable = suspendable_ && op.kind != ftl::FlashOp::Kind::Read;
  flash_cmd_.host_read = host_reading_ && op.kind == ftl::FlashOp::Kind::Read && !op.gc;
  const sc_time now = sc_core::sc_time_stamp();
  sc_time delay = at - now;
  flash[g.channel_of(die).v]->b_transport(flash_trans_, delay);
  for (const auto& [from, to] : flash_cmd_.resumed) resumed(die.v, from, to);
  if (awaiting_ && flash_cmd_.suspendable) {
    std::vector<Awaited>& live = awaited_[die.v];
    live.erase(std::remove_if(live.begin(), live.end(), [&](const Awaited& a) { return a.end <= now; }), live.end());
    live.push_back({now + delay, awaiting_});
  }
  return now + delay;
}

void Controller::resumed(uint32_t die, const sc_time& from, const sc_time& to) {
  // A read suspended an op on `die` that ended at `from`: what waited for
  // its end waits longer. A write-through command whose flash work ended
  // there completes that much later (its host is told); the write cache's
  // slots of the pages it programs stay held (reads keep hitting them,
  // FLUSH waits); idle-time GC issues its next op at the old end and finds
  // the die still busy.
  for (Awaited& a : awaited_[die])
    if (a.end == from) {
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
  if (!cache_.enabled()) return;
  cache_.postpone(from, to, [&](uint32_t lpn) {
    const Ppn p = ftl_->lookup(Lpn(lpn));
    return p.valid() && fgeo_.die_of(p).v == die;
  });
}

sc_time Controller::packed_op(const ftl::FlashOp& op, const sc_time& at) {
  // The op is on a slot (a compressed host page); the flash works on the
  // pages it completes (a program) or lies in (a read).
  const uint32_t slot = fgeo_.page_in_block(op.ppn);
  const Ppn block_start(op.ppn.v - slot);
  sc_time done = at;
  if (op.kind == ftl::FlashOp::Kind::Program) {
    uint32_t first = 0;
    const uint32_t n = packed_.completes(slot, &first);
    for (uint32_t q = first; q < first + n; ++q)
      done = std::max(done, issue_flash(op, q, cfg_.nand.geometry.page_size, done, 1));
    return done;  // n = 0: the slot waits in the controller's buffer
  }
  CompressedLayout::Span span[2];
  const uint32_t n = packed_.spans(slot, span);
  // Still in the buffer (the page it ends in not yet programmed): no flash access.
  if (!media_.is_programmed(Ppn(block_start.v + packed_.completing_slot(span[n - 1].page)))) return at;
  for (uint32_t k = 0; k < n; ++k) done = std::max(done, issue_flash(op, span[k].page, span[k].bytes, at, 1));
  return done;
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
