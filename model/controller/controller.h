#pragma once
// The SSD controller running its firmware: it receives host commands from
// the SATA interface, charges firmware steps to the controller CPU, asks the
// FTL plug-in what each logical page needs, and schedules the resulting NAND
// operations on the channels and the data staging in DRAM.
//
// Sockets: `host` (target, from the SATA interface), `dram` (initiator, to the
// DRAM buffer), `flash` (multi initiator, one binding per NAND channel).

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <functional>
#include <memory>
#include <unordered_map>

#include <spdlog/spdlog.h>

#include "model/sim/config.h"
#include "model/host/content_shadow.h"
#include "model/controller/compression.h"
#include "model/controller/controller_cpu.h"
#include "model/nand/flash_media.h"
#include "model/ftl/ftl.h"
#include "model/controller/drive_state.h"
#include "model/controller/write_cache.h"
#include "tlm/ssd_protocol.h"

namespace ssd {

// What one phase of a drive state did (the report's `state` section).
struct StatePhaseResult {
  std::string phase;
  uint64_t pages_written = 0, gc_pages_moved = 0, trimmed_pages = 0, background_slices = 0;
  uint64_t trace_records = 0;  // trace: records read (reads and flushes among them leave no trace)
  double idle_flash_s = 0;  // idle: flash time of the background work done
};

// The FTL's parameters as the firmware builds them from the configuration.
ftl::FtlParams ftl_params(const SimConfig& cfg);

class Controller : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Controller> host;
  tlm_utils::simple_initiator_socket<Controller> dram;
  tlm_utils::multi_passthrough_initiator_socket<Controller> flash;

  // Throws ftl::FtlConfigError naming dram.size if the DRAM cannot hold the
  // FTL's mapping table and the write cache: before the FTL builds its
  // tables when it can say their size from its parameters (FtlTableBytes).
  Controller(sc_core::sc_module_name name, const SimConfig& cfg);
  ~Controller() override;

  ftl::Ftl& ftl() { return *ftl_; }
  const ftl::Ftl& ftl() const { return *ftl_; }
  const FlashMedia& media() const { return media_; }
  ControllerCpu& cpu() { return cpu_; }
  const ControllerCpu& cpu() const { return cpu_; }
  const WriteCache& write_cache() const { return cache_; }
  // Slices of idle-time work the FTL returned (ftl.idle_after).
  uint64_t background_slices() const { return background_slices_; }
  // The host has stopped for good: the timed phase ends with its last
  // completion. A slice of idle-time work under way finishes (drain); no
  // new one starts (a drive left idle is a state phase, idle:TIME).
  void host_finished();
  // TRIM commands completed without unmapping (controller.trim=false).
  uint64_t trims_ignored() const { return trims_ignored_; }
  // Some write was acknowledged before its page was programmed: held in the
  // write cache or in the FTL's own buffer (volatile). Tracked only while
  // on_host_program is set.
  bool acknowledged_before_flash() const { return cache_.enabled() || ftl_buffered_; }
  // Told, for every page program, the LPN and version it writes and when it
  // ends (power-fail analysis; GC copies too).
  void on_host_program(std::function<void(uint64_t lpn, uint64_t tag, const sc_time& done)> f) {
    on_program_ = std::move(f);
  }
  uint64_t user_bytes() const { return ftl_->user_pages() * cfg_.nand.host_page(); }
  // A hint with no effect on results: a host request at byte `offset` comes
  // soon (the synthetic workload draws ahead); the FTL may prefetch its map
  // entry into the simulator's CPU cache (ftl::Ftl::prefetch).
  void prefetch(uint64_t offset) const {
    const uint64_t lpn = offset / cfg_.nand.host_page();
    if (lpn < ftl_->user_pages()) ftl_->prefetch(Lpn(uint32_t(lpn)));
  }

  // A drive state before the timed phase, applied functionally (no timing;
  // controller_state.cpp). With a `shadow` (content checks), the writes are
  // recorded in it. `progress`, if set, is called every 65536 page writes
  // with the pages written so far and the total (the caller decides whether
  // to print). The FTL's statistics are zeroed afterwards.
  // `to_host` maps this controller's LPNs to the host's (a RAID member).
  std::vector<StatePhaseResult> apply_state(const DriveState& state, uint64_t seed, ContentShadow* shadow = nullptr,
                                            const std::function<void(uint64_t done, uint64_t total)>& progress = nullptr,
                                            const std::function<uint64_t(uint64_t)>& to_host = nullptr);
  // Save or load the drive's functional state (--save-state, --load-state;
  // before the timed phase, when nothing is in flight): the firmware's
  // counters, the flash media and the FTL. False if the FTL cannot.
  bool checkpoint(Checkpoint& c);

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_time& delay);
  void serve(tlm::tlm_generic_payload& trans, sc_time& delay);
  // Tell the FTL about the command's page run before its pages.
  void begin(const ssdtlm::HostCommand& cmd, uint64_t first, uint64_t last);
  // nand.suspend: a read moved the end of an op on `die` from `from` to `to`.
  void resumed(uint32_t die, const std::vector<std::pair<sc_time, sc_time>>& moves);
  // An idle-time loop (ftl.idle_after > 0; ftl.idle_dies of them).
  void background();
  // Read one page from `at`; with `content`, append what the page held.
  // `bytes`: what crosses the bus and the DRAM port (host_bytes: the page,
  // or with nand.partial_read the sectors wanted). `lead_cycles`: firmware
  // that runs on the core just before the page's lookup, as one task with
  // it (a one-page read's command decode).
  sc_time read_page(uint32_t lpn, uint32_t bytes, const sc_time& at, std::vector<ssdtlm::PageData>* content,
                    uint64_t lead_cycles = 0);
  // Multi-plane: read `n` consecutive pages of `cmd` from `first` with their
  // flash work as one list; ends[k]: when page k's data is in DRAM. n = 1
  // is read_page (with `lead_cycles`; more pages: 0).
  void read_pages(ssdtlm::HostCommand& cmd, uint64_t first, uint32_t n, const sc_time& at, sc_time* ends,
                  uint64_t lead_cycles = 0);
  // The bytes of page `lpn` that cross the bus for `cmd` (nand.partial_read).
  uint32_t host_bytes(const ssdtlm::HostCommand& cmd, uint64_t lpn) const;
  // What the page read in `work` held (content checks).
  ssdtlm::PageData page_data(const ftl::FtlWork& work) const;
  void secure_erase(ContentShadow* shadow, const std::function<uint64_t(uint64_t)>& to_host);
  // The trace phase: its writes as commands, its TRIMs page by page.
  void apply_trace(const StatePhase& p, StatePhaseResult& r, ContentShadow* shadow, bool raid_member,
                   const std::function<void(uint64_t, uint64_t)>& command);
  // Background work for up to `seconds` of flash time; returns the time spent.
  double idle(double seconds, uint64_t& slices);
  // Write one page through the FTL from `at` (after a read-modify-write read
  // if `partial`), its data tagged `tag` (0: a fresh internal version);
  // returns when the program (and any GC it forced) completes.
  sc_time write_page(uint32_t lpn, bool partial, const sc_time& at, uint64_t tag);
  void write_back(ssdtlm::HostCommand& cmd, const sc_time& staged, sc_time& delay, tlm::tlm_generic_payload& trans);
  // Write-back: pages [first, first + n) of `cmd`, page k not before at[k],
  // through the FTL to flash; each holds its cache slot until its program ends.
  void destage(const ssdtlm::HostCommand& cmd, uint64_t first, uint32_t n, const sc_time* at);
  // Write-back under SATA flow control (cmd.data_link, which SsdDrive wires
  // only to a controller with a write cache): each Data FIS is
  // asked for once the pages it carries have cache slots, so a write larger
  // than the free cache crosses the link as destages free it; `decoded`:
  // when the command's decode ended (no data moves before).
  void write_back_paced(ssdtlm::HostCommand& cmd, const sc_time& decoded, sc_time& delay,
                        tlm::tlm_generic_payload& trans);
  bool partial_page(const ssdtlm::HostCommand& cmd, uint64_t lpn) const;
  // Several pages' ops as one list (a multi-plane group): for each op, the
  // index of its page's first op (a barrier waits only for its own page),
  // the host page it serves (activity labels), and for a host read the
  // bytes the host wants of its page.
  struct Batch {
    std::vector<uint32_t> page_start, read_bytes;
    std::vector<uint64_t> lpn;
    void clear() { page_start.clear(), read_bytes.clear(), lpn.clear(); }
  };
  // Schedule an FTL's flash ops (honouring their order) from `at`; returns
  // when the last completes (each op's completion is left in done_).
  sc_time run_flash(const ftl::FtlWork& work, const sc_time& at, const Batch* batch = nullptr);
  // Multi-plane: write `n` consecutive pages from `first` with their flash
  // work as one list, page k not before at[k]; ends[k]: when page k (and
  // the GC it caused) completes. n = 1 is write_page.
  void write_pages(const ssdtlm::HostCommand& cmd, uint64_t first, uint32_t n, const sc_time* at, uint64_t tag,
                   sc_time* ends);
  // Pages written (or read) together: the planes of a die with nand.multiplane, else 1.
  uint32_t group_pages() const { return cfg_.nand.multiplane ? cfg_.nand.geometry.planes_per_die : 1; }
  // `bytes`: what crosses the channel bus (a page, part of one, or 0), for
  // all `planes` of a multi-plane operation together.
  // `gc_planes`: of the planes, how many are GC work (a host page can pair
  // with a copy); by default all of them when `op` is GC, else none.
  // `on_flash`: as packed_op's.
  sc_time flash_op(const ftl::FlashOp& op, uint32_t bytes, const sc_time& at, uint32_t planes = 1,
                   uint32_t gc_planes = UINT32_MAX, bool on_flash = true);
  // One NAND command for `op` on flash page `page` of its block.
  sc_time issue_flash(const ftl::FlashOp& op, uint32_t page, uint32_t bytes, const sc_time& at, uint32_t planes,
                      uint32_t gc_planes);
  // controller.compression: `op` is on a compressed host page (a slot);
  // the flash pages it completes or lies in (compression.h).
  // `on_flash`: for a read, its slot was on flash when the FTL planned it
  // (else still in the controller's buffer: no flash access); see Planned.
  sc_time packed_op(const ftl::FlashOp& op, const sc_time& at, bool on_flash);
  // What the FTL's plan of a list of ops saw of the array. The FTL changes
  // the array as it plans (a merge erases the block it copied from, in the
  // same list) and the ops run afterwards, idle-time ones over time while the
  // host's commands change it further; so this is read when the list is
  // planned: per op, for a read of a packed slot, whether the slot was on
  // flash; for a program, what it writes (power-fail tracking).
  struct Planned {
    bool on_flash = true;
    PageContent written;
  };
  // Needed only with packed pages or power-fail tracking (else `out` is left empty).
  bool needs_plan() const { return packed_.enabled() || bool(on_program_); }
  void plan_view(const std::vector<ftl::FlashOp>& ops, std::vector<Planned>& out);
  // The NAND commands the firmware builds for `ops`, cpu.cycles.flash_op
  // each: one an op, but with packed pages one a flash page a program
  // completes (none while its page still fills in the controller's buffer)
  // or a read's slot lies in (none while the slot is in the buffer). `plan`:
  // plan_view's of `ops` when needs_plan().
  uint64_t nand_commands(const std::vector<ftl::FlashOp>& ops, const std::vector<Planned>& plan) const;
  // Multi-plane (nand.multiplane): the ops after `i` in `ops` that run with
  // it as one operation (same die, kind and multi-plane block, same page of
  // other planes, everything they wait for already `booked`), into `with`.
  void plane_partners(const std::vector<ftl::FlashOp>& ops, size_t i, const std::vector<char>& booked,
                      std::vector<size_t>& with) const;
  // The head of barrier ops[i]: i, or for a sibling the nearest earlier
  // barrier that is not one (what it waits for: the ops before the head).
  static size_t head_of(const std::vector<ftl::FlashOp>& ops, size_t i);
  sc_time dram_access(uint32_t bytes, const sc_time& at);
  // A write's data into DRAM: each Data FIS as it arrives (cmd.arrived),
  // shifted by the decode that precedes the DMA (`arrival` is when the
  // whole command reached the controller, `decoded` when its decode ended);
  // when all of it is there.
  sc_time stage_write_data(const ssdtlm::HostCommand& cmd, const sc_time& arrival, const sc_time& decoded);
  // CPU time for the FTL's cycles (after `lead_cycles` of other firmware,
  // one task), then its mapping-table traffic in DRAM.
  sc_time charge(const ftl::FtlWork& work, const sc_time& at, uint64_t lead_cycles = 0);

  SimConfig cfg_;
  ftl::FtlParams ftl_params_;  // what the FTL is built from (again at a secure erase)
  FlashGeometry fgeo_;  // the FTL's view of the flash (multi-plane blocks, compressed pages)
  CompressedLayout packed_;  // controller.compression: compressed pages packed in each block
  std::shared_ptr<spdlog::logger> log_;
  ControllerCpu cpu_;
  FlashMedia media_;
  std::unique_ptr<ftl::Ftl> ftl_;
  WriteCache cache_;
  uint64_t version_ = 0;  // tags each written page
  uint64_t next_lpn_[3] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};  // per op: the page after the last command's
  sc_time last_host_done_ = sc_core::SC_ZERO_TIME;  // latest completion given to a host command
  sc_core::sc_event host_event_;                     // a host command arrived, or the host finished
  bool host_finished_ = false;
  uint64_t background_slices_ = 0;
  std::vector<uint8_t> bg_busy_;  // ftl.idle_dies > 1: per die, the idle loops' slices working on it
  bool suspendable_ = false;  // nand.suspend: the ops being issued may be suspended by a read
  // nand.suspend: a host read is being served: its reads may suspend. (Not a
  // write's or a TRIM's: a map-page read of theirs could otherwise suspend
  // their own program, whose end the command has not answered yet.)
  bool host_reading_ = false;
  // nand.suspend, write-through: the command being served, and per die the
  // suspendable op of each command that ends last there (its end, its
  // command; Controller::resumed), the ended ones dropped
  // once the list has doubled since the last drop (an op's cost stays O(1)
  // with a deep queue of GC work behind the die; an ended op is never
  // moved, so it does no harm meanwhile); per command, when its flash work
  // ends.
  ssdtlm::HostCommand* awaiting_ = nullptr;
  struct Awaited {
    sc_time end;
    ssdtlm::HostCommand* cmd = nullptr;
  };
  struct AwaitedOps {
    std::vector<Awaited> ops;
    size_t drop_at = 64;  // drop the ended ops when there are this many
  };
  std::vector<AwaitedOps> awaited_;
  std::unordered_map<const ssdtlm::HostCommand*, sc_time> flash_done_;
  uint64_t trims_ignored_ = 0;
  bool ftl_buffered_ = false;  // the FTL keeps host writes in its own RAM (power-fail analysis)
  void note_buffered(const ftl::FtlWork& work);  // after a host write: does it?
  std::vector<sc_time> done_;  // run_flash: each op's completion
  std::vector<Planned> planned_;          // run_flash's plan_view
  std::vector<uint32_t> erased_blocks_;   // plan_view's scratch
  ftl::FtlWork batch_work_;    // write_pages: the group's ops
  Batch batch_;
  std::function<void(uint64_t, uint64_t, const sc_time&)> on_program_;
  sc_time gc_free_at_ = sc_core::SC_ZERO_TIME;  // controller.serial_gc: when the last GC's ops end
  sc_time ftl_buffer_free_at_ = sc_core::SC_ZERO_TIME;  // when the FTL's RAM buffer was last drained (FtlWork::into_buffer)
  ftl::FtlWork work_;      // reused: no allocation per page
  // Reused payloads: b_transport calls never wait, so one of each suffices.
  tlm::tlm_generic_payload flash_trans_, dram_trans_;
  ssdtlm::FlashCommand flash_cmd_;
  // Bytes the host read in flight needs from its page (nand.partial_read); 0: the page.
  uint32_t host_read_bytes_ = 0;
  // The host page whose NAND ops are being issued (activity traces); kUnmapped: none.
  uint64_t host_lpn_ = ssdtlm::PageData::kUnmapped;
  ssdtlm::DramAccess dram_cmd_;
};

}  // namespace ssd
