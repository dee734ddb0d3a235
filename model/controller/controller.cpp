#include "model/controller/controller.h"

#include <algorithm>
#include <cassert>

#include "model/sim/log.h"
#include "model/sim/sanitizer_stack.h"
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
  p.sram_buffer_bytes = cfg.sram_write_buffer;
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

namespace {
// Why the DRAM cannot hold a mapping table of `map_bytes` and the write
// cache; "" if it can (or the controller has no DRAM: its tables live in SRAM).
std::string dram_shortfall(const SimConfig& cfg, uint64_t map_bytes) {
  if (cfg.dram.size == 0) return "";
  const uint64_t cache = cfg.dram.write_cache / cfg.nand.host_page() * cfg.nand.host_page();  // whole pages (WriteCache)
  if (map_bytes <= cfg.dram.size && cache <= cfg.dram.size - map_bytes) return "";
  return std::to_string(cfg.dram.size) + " bytes of DRAM cannot hold the " + cfg.ftl_name + " FTL's mapping table (" +
         std::to_string(map_bytes) + " bytes)" +
         (cache ? " plus the write cache (" + std::to_string(cache) + " bytes)" : std::string());
}

// The FTL's view of the flash, once the DRAM is known to hold the FTL's
// table (when the FTL can say its size beforehand). Checked before anything
// per page is allocated (the flash media's records, the FTL's tables): a
// table too big for the DRAM is usually too big for the simulator's memory
// too, and the user should hear about dram.size, not run out of memory.
FlashGeometry dram_checked_geometry(const SimConfig& cfg, const ftl::FtlParams& p) {
  if (const std::optional<uint64_t> need = ftl::FtlRegistry::instance().table_bytes(cfg.ftl_name, p))
    if (const std::string why = dram_shortfall(cfg, *need); !why.empty()) throw ftl::FtlConfigError("dram.size", why);
  return p.geometry;
}
}  // namespace

Controller::Controller(sc_core::sc_module_name name, const SimConfig& cfg)
    : sc_module(name), host("host"), dram("dram"), flash("flash"), cfg_(cfg), ftl_params_(ftl_params(cfg)),
      fgeo_(dram_checked_geometry(cfg, ftl_params_)),
      packed_(cfg.nand.geometry.page_size, cfg.nand.geometry.pages_per_block, cfg.nand.compressed_bytes),
      log_(log::get(this->name())), cpu_("cpu", cfg.cpu),
      media_(fgeo_, cfg.track_content),
      ftl_(ftl::FtlRegistry::instance().create(cfg.ftl_name, ftl_params_, media_)),
      cache_((cfg.dram.size ? cfg.dram.write_cache : cfg.sram_write_buffer) / cfg.nand.host_page(), fgeo_.dies()) {
  // (An FTL without FtlTableBytes, checked now it is built; first, as the
  // destructor does not run if this throws.)
  if (const std::string why = dram_shortfall(cfg, ftl_->map_bytes()); !why.empty())
    throw ftl::FtlConfigError("dram.size", why);
  host.register_b_transport(this, &Controller::b_transport);
  if (cfg.idle_after != sc_core::SC_ZERO_TIME) {
    if (cfg.idle_dies > 1) bg_busy_.assign(fgeo_.dies(), 0);
    for (uint32_t w = 0; w < cfg.idle_dies; ++w)
      sc_core::sc_spawn([this] { background(); }, w ? ("background_" + std::to_string(w)).c_str() : "background");
  }
  flash_trans_.set_extension(&flash_cmd_);
  dram_trans_.set_extension(&dram_cmd_);
  if (cfg.nand.suspend) awaited_.assign(fgeo_.dies(), {});
  if (packed_.enabled()) media_.keep_erased_fill();  // (plan_view: a slot read before its block's erase)
}

Controller::~Controller() {
  // The extensions are members, not heap objects: detach before the payloads die.
  flash_trans_.clear_extension(&flash_cmd_);
  dram_trans_.clear_extension(&dram_cmd_);
}

void Controller::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  serve(trans, delay);
  // Background work waits for the host to be quiet from its last completion.
  last_host_done_ = std::max(last_host_done_, ssdtlm::sim_time() + delay);
  if (cfg_.idle_after != sc_core::SC_ZERO_TIME) host_event_.notify();  // only the idle loop waits on it
}

void Controller::host_finished() {
  host_finished_ = true;
  host_event_.notify();  // an idle loop waiting for quiet or for work ends
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
  const ProcessStack stack;  // (sanitizer builds: a firmware error throws here)
  ftl::FtlWork work;
  std::vector<sc_time> done;
  std::vector<uint32_t> mine;  // the dies of this loop's slice (idle_dies > 1)
  std::vector<Planned> planned;  // (its own: the host's run_flash calls come between its ops)
  const FlashGeometry& g = cfg_.nand.geometry;
  for (;;) {
    if (host_finished_) return;
    const sc_time now = ssdtlm::sim_time(), quiet_at = last_host_done_ + cfg_.idle_after;
    if (now < quiet_at) {
      sc_core::wait(quiet_at - now, host_event_);
      continue;
    }
    stack.resync();  // resumed: the FTL's work may throw
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
    // What the plan saw of the array, read now: the slice's ops run over
    // time, while the host's commands may change the media meanwhile.
    if (needs_plan()) plan_view(work.ops, planned);
    t = cpu_.execute(t, cfg_.cpu.page_cycles * nand_commands(work.ops, planned));
    done.assign(work.ops.size(), sc_core::SC_ZERO_TIME);
    sc_time all = t, barrier_from = t, siblings_end = sc_core::SC_ZERO_TIME;
    for (size_t i = 0; i < work.ops.size(); ++i) {
      const ftl::FlashOp& op = work.ops[i];
      sc_time start = std::max(t, ssdtlm::sim_time());
      if (op.after >= 0) start = std::max(start, done[size_t(op.after)]);
      if (op.barrier && !op.sibling) barrier_from = all;
      if (op.barrier) start = std::max(start, barrier_from);
      suspendable_ = cfg_.nand.suspend;  // nobody waits for its end but this loop
      done[i] = flash_op(op, op.kind == ftl::FlashOp::Kind::Erase ? 0 : g.page_size, start, 1, UINT32_MAX,
                         planned.empty() || planned[i].on_flash);
      suspendable_ = false;
      all = std::max(all, done[i]);
      // An idle-time flush of the FTL's buffer: a host write arriving
      // meanwhile waits for its ops issued so far (the rest follow one by one).
      if (work.drains_buffer) ftl_buffer_free_at_ = std::max(ftl_buffer_free_at_, done[i]);
      if (on_program_ && planned[i].written.lpn != UINT32_MAX)
        on_program_(planned[i].written.lpn, planned[i].written.version, done[i]);
      // The op runs; then the next is issued (a sibling at once, beside it).
      siblings_end = std::max(siblings_end, done[i]);
      if (i + 1 < work.ops.size() && work.ops[i + 1].sibling) continue;
      sc_core::wait(siblings_end - ssdtlm::sim_time());
      stack.resync();
      siblings_end = sc_core::SC_ZERO_TIME;
    }
    if (!bg_busy_.empty())
      for (uint32_t d : mine) --bg_busy_[d];
  }
}

void Controller::serve(tlm::tlm_generic_payload& trans, sc_time& delay) {
  HostCommand& cmd = *trans.get_extension<HostCommand>();
  const sc_time now = ssdtlm::sim_time();
  const uint32_t page = cfg_.nand.host_page();
  // (The SATA interface has refused commands beyond the capacity.)
  const uint64_t first = cmd.offset / page;
  const uint64_t last = cmd.bytes ? (cmd.offset + cmd.bytes - 1) / page : first;
  // A one-page read's decode and its page's lookup run back to back on the
  // core (ControllerCpu::execute of two steps: one reservation fewer per
  // read, the same times).
  const uint64_t lead = cmd.op == HostOp::Read && first == last ? cfg_.cpu.decode_cycles : 0;
  sc_time t = lead ? now + delay : cpu_.execute(now + delay, cfg_.cpu.decode_cycles);
  sc_time done = t;

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
        read_pages(cmd, l, n, t, ends, lead);
        for (uint32_t k = 0; k < n; ++k) {
          cmd.ready.push_back({std::min(cmd.bytes, (l + k + 1) * page - cmd.offset), ends[k]});
          done = std::max(done, ends[k]);
        }
        l += n;
      }
      host_reading_ = false;
      break;
    case HostOp::Write: {
      if (cmd.data_link) return write_back_paced(cmd, t, delay, trans);  // (wired with a write cache only)
      t = stage_write_data(cmd, now + delay, t);
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
        cmd.ignored = true;
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
                              std::vector<ssdtlm::PageData>* content, uint64_t lead_cycles) {
  const uint32_t page = bytes;  // what crosses the bus and the DRAM port (host_bytes)
  if (const WriteCache::Entry* hit = cache_.enabled() ? cache_.holds(lpn, ssdtlm::sim_time()) : nullptr) {
    cache_.count_hit();
    if (content) content->push_back({lpn, hit->tag});
    return dram_access(page, cpu_.execute(at, lead_cycles, cfg_.cpu.ftl.lookup));
  }
  work_.clear();
  ftl_->read(Lpn(lpn), work_);
  if (content) content->push_back(page_data(work_));
  const sc_time issued = charge(work_, at, lead_cycles);
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

void Controller::read_pages(HostCommand& cmd, uint64_t first, uint32_t n, const sc_time& at, sc_time* ends,
                            uint64_t lead_cycles) {
  std::vector<ssdtlm::PageData>* content = cfg_.track_content ? &cmd.content : nullptr;
  if (n == 1) {
    ends[0] = read_page(uint32_t(first), host_bytes(cmd, first), at, content, lead_cycles);
    return;
  }
  assert(lead_cycles == 0);
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
    if (const WriteCache::Entry* hit = cache_.enabled() ? cache_.holds(lpn, ssdtlm::sim_time()) : nullptr) {
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
  const sc_time now = ssdtlm::sim_time();
  const sc_time done = cpu_.execute(ack, cfg_.cpu.complete_cycles);
  for (uint64_t l = first; l <= last;) {
    const uint32_t n = uint32_t(std::min<uint64_t>(group_pages(), last - l + 1));
    destage(cmd, l, n, &slots[l - first]);
    l += n;
  }
  delay = done - now;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Controller::destage(const HostCommand& cmd, uint64_t first, uint32_t n, const sc_time* at) {
  sc_time ends[16];
  suspendable_ = cfg_.nand.suspend;  // the host has (or will have) its completion: a read may suspend
  write_pages(cmd, first, n, at, cmd.data_tag, ends);
  suspendable_ = false;
  for (uint32_t k = 0; k < n; ++k) {
    // The die its destage program runs on (none known: the FTL holds the
    // page in a buffer of its own).
    const Ppn p = ftl_->lookup(Lpn(uint32_t(first + k)));
    cache_.insert(uint32_t(first + k), ends[k], cmd.data_tag, p.valid() ? fgeo_.die_of(p).v : fgeo_.dies());
  }
}

void Controller::write_back_paced(HostCommand& cmd, const sc_time& decoded, sc_time& delay,
                                  tlm::tlm_generic_payload& trans) {
  const uint64_t page = cfg_.nand.host_page();
  const uint64_t first = cmd.offset / page, last = (cmd.offset + cmd.bytes - 1) / page;
  static thread_local std::vector<sc_time> slot, ready;  // per page of the command
  slot.assign(last - first + 1, decoded);
  ready.assign(last - first + 1, decoded);
  uint64_t admitted = 0;    // pages given a slot, in LBA order
  uint64_t asked = 0;       // bytes of the command asked for
  sc_time landed = decoded;  // when all of the data asked for is in DRAM
  const sc_time now = ssdtlm::sim_time();
  sc_time done;
  for (uint64_t l = first; l <= last;) {
    const uint32_t n = uint32_t(std::min<uint64_t>(group_pages(), last - l + 1));
    // The group's data, FIS by FIS: each once every page it touches has a
    // slot (pages are admitted in order, so a FIS waits for the slot of
    // its last page), landing in DRAM as it arrives.
    const uint64_t group_end = std::min(cmd.bytes, (l + n) * page - cmd.offset);
    while (asked < group_end) {
      const uint64_t end = std::min(cmd.bytes, asked + ssdtlm::kDataFisBytes);
      const uint64_t pages = (cmd.offset + end - 1) / page - first + 1;  // touched by the FIS
      for (; admitted < pages; ++admitted) slot[admitted] = cache_.admit(decoded);
      const sc_time arrived = cmd.data_link->deliver(end, slot[pages - 1]);
      landed = std::max(landed, dram_access(uint32_t(end - asked), arrived));
      // Pages whose last byte came in this FIS are complete.
      for (uint64_t k = (cmd.offset + asked) / page - first; k < pages; ++k)
        if ((first + k + 1) * page - cmd.offset <= end || end == cmd.bytes) ready[k] = landed;
      asked = end;
      // All of it in a slot: the host's completion, ahead of the last destages.
      if (asked == cmd.bytes) done = cpu_.execute(landed, cfg_.cpu.complete_cycles);
    }
    destage(cmd, l, n, &ready[l - first]);
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
  if (on_program_) note_buffered(work_);  // (only a power-fail run asks)
  if (ftl_->stats().gc_runs != gc_before)
    log_->debug("write of LPN {} ran {} GC victim(s): {} flash ops", lpn, ftl_->stats().gc_runs - gc_before,
                work_.ops.size());
  const sc_time done = run_flash(work_, charge(work_, t));
  return work_.into_buffer ? std::max(done, ftl_buffer_free_at_) : done;
}

void Controller::note_buffered(const ftl::FtlWork& work) {
  // An FTL with a RAM write buffer says so (into_buffer), even when the same
  // write also flushed it (a block FTL's write to another logical block
  // programs the held pages, then holds this one); a plug-in that does not
  // say so shows it by a host write with no program of a host page.
  if (!ftl_buffered_ && work.record_ops &&
      (work.into_buffer || std::none_of(work.ops.begin(), work.ops.end(), [](const ftl::FlashOp& op) {
         return !op.gc && op.kind == ftl::FlashOp::Kind::Program;
       })))
    ftl_buffered_ = true;
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
  batch_work_.drains_buffer = false;
  batch_.clear();
  sc_time issue = at[0];
  bool into_buffer[16];
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
    into_buffer[k] = work_.into_buffer;
    batch_work_.drains_buffer = batch_work_.drains_buffer || work_.drains_buffer;
    if (on_program_) note_buffered(work_);
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
    ends[k] = into_buffer[k] ? std::max(issue, ftl_buffer_free_at_) : issue;
    for (uint32_t j = bounds[k]; j < bounds[k + 1]; ++j) ends[k] = std::max(ends[k], done_[j]);
  }
}

sc_time Controller::charge(const ftl::FtlWork& work, const sc_time& at, uint64_t lead_cycles) {
  sc_time t = cpu_.execute(at, lead_cycles, work.cpu_cycles);
  const uint32_t entries = work.map_reads + work.map_writes;
  if (entries) t = dram_access(entries * cfg_.dram.map_entry_bytes, t);
  return t;
}

sc_time Controller::stage_write_data(const HostCommand& cmd, const sc_time& arrival, const sc_time& decoded) {
  // Without arrival times the data is all there: one transfer into DRAM.
  if (cmd.arrived.empty()) return dram_access(uint32_t(cmd.bytes), decoded);
  // The firmware decodes the command before it sets up the DMA, so the data
  // streams in that much after the link's own timing: each Data FIS lands
  // in DRAM as it arrives, and a large write's buffer traffic overlaps its
  // link transfer instead of following it. (A one-FIS write: one transfer
  // at `decoded`, as without arrival times.)
  const sc_time setup = decoded - arrival;
  sc_time staged = decoded;
  uint64_t from = 0;
  for (const HostCommand::DataReady& piece : cmd.arrived) {
    staged = std::max(staged, dram_access(uint32_t(piece.end - from), piece.at + setup));
    from = piece.end;
  }
  return staged;
}

sc_time Controller::dram_access(uint32_t bytes, const sc_time& at) {
  if (cfg_.dram.size == 0) return at;  // DRAM-less: data and tables stay in controller SRAM
  dram_cmd_.bytes = bytes;
  const sc_time now = ssdtlm::sim_time();
  sc_time delay = at - now;
  dram->b_transport(dram_trans_, delay);
  return now + delay;
}

}  // namespace ssd
