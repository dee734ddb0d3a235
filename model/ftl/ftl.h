#pragma once
// The FTL plug-in interface: the firmware running on the controller CPU tells
// the FTL about each host command (begin_command), then calls it once per
// logical page of the command. The FTL owns the mapping, keeps the flash
// media's functional state, and says what the command costs: CPU cycles,
// mapping-table accesses in DRAM, and the NAND operations (with their order)
// that the firmware must then schedule on the flash. When the host has been
// idle for `ftl.idle_after`, the firmware asks the FTL for background work
// (GC, merges, wear levelling, map flushes) a slice at a time.
//
// Plug-ins register by name (FtlRegistry) and are chosen by `ftl.name`; each
// declares its own options (shown in --help) and statistics (in the report's
// device.ftl section). Out-of-tree plug-ins are shared libraries loaded with
// `--ftl.plugin PATH.so` (SSDSIM_FTL_PLUGIN below). This header is installed
// and self-contained: a plug-in needs nothing else of the project.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/ftl/checkpoint.h"
#include "model/nand/flash_media.h"
#include "model/nand/geometry.h"

namespace ssd::ftl {

// Bumped whenever this interface changes incompatibly; a plug-in built
// against another version is refused at load.
constexpr int kFtlApiVersion = 6;

// One NAND array operation the firmware must schedule.
struct FlashOp {
  enum class Kind : uint8_t { Read, Program, Erase } kind;
  Ppn ppn;             // page (for Erase: first page of the block)
  bool gc = false;     // caused by garbage collection, not the host page
  // Start no earlier than the completion of ops[after] (-1: no dependency),
  // or of every earlier op when `barrier` is set.
  int32_t after = -1;
  bool barrier = false;
  // With `barrier`: wait for what its head, the nearest earlier barrier
  // that is not a sibling, waited for (the ops before the head), not for the
  // head or the ops since: a block set's erases side by side on their dies,
  // or the first op on each die of a later block in a block-FTL flush.
  bool sibling = false;
  // The host page a host (not gc) op serves, where it is not the page the
  // controller is serving now: a block FTL's flush programs the pages that
  // earlier commands left in its buffer. kNoLpn: the current one. Only the
  // activity trace reads it.
  static constexpr uint32_t kNoLpn = UINT32_MAX;
  uint32_t lpn = kNoLpn;
};

// What serving one logical page costs; the firmware turns it into time.
struct FtlWork {
  uint64_t cpu_cycles = 0;   // firmware work on the controller core
  uint32_t map_reads = 0;    // mapping-table entries read from DRAM
  uint32_t map_writes = 0;   // mapping-table entries written to DRAM
  std::vector<FlashOp> ops;
  // A read served from the FTL's own RAM (e.g. a block FTL's write buffer in
  // controller SRAM), with no flash read: what that copy holds.
  bool buffered = false;
  PageContent buffer_content;
  // A write whose page went into the FTL's own RAM buffer (no program of
  // its own yet): its slot is free once the last flush of that buffer has
  // ended, so the controller completes it no earlier. A flush (`drains_buffer`)
  // empties the buffer: the controller notes when its flash work ends.
  bool into_buffer = false;
  bool drains_buffer = false;
  // Functional-only runs (preconditioning) have no timing: skip listing ops.
  bool record_ops = true;
  // background() only, when the firmware keeps several slices in flight
  // (ftl.idle_dies > 1): per die, nonzero if another slice is working on it;
  // an FTL that can should pick its slice elsewhere. Null: none busy.
  const std::vector<uint8_t>* busy_dies = nullptr;
  void add(const FlashOp& op) {
    if (!record_ops) return;
    // Field by field into the new slot: a copy of the whole struct reloads,
    // as one wide load, the narrow stores that just built it on the stack,
    // which the CPU cannot forward (a stall per op, on GC's busiest path).
    FlashOp& o = ops.emplace_back();
    o.kind = op.kind;
    o.ppn = op.ppn;
    o.gc = op.gc;
    o.after = op.after;
    o.barrier = op.barrier;
    o.sibling = op.sibling;
    o.lpn = op.lpn;
  }
  void clear() {
    cpu_cycles = 0;
    map_reads = map_writes = 0;
    ops.clear();
    buffered = into_buffer = drains_buffer = false;
  }
  // What a read in this work returns: the buffered copy, else the page of
  // the last host (non-GC) read op (earlier reads may be the FTL's own, e.g.
  // map pages), else nothing (unmapped: zeros).
  bool returns(const FlashMedia& media, PageContent& out) const {
    if (buffered) return out = buffer_content, true;
    for (auto op = ops.rbegin(); op != ops.rend(); ++op)
      if (op->kind == FlashOp::Kind::Read && !op->gc) return out = media.read(op->ppn), true;
    return false;
  }
};

// Firmware cost of each FTL step, in controller cycles (config `cpu.cycles.*`).
struct FtlCycleCosts {
  uint64_t lookup = 150;      // translate one LPN
  uint64_t map_update = 200;  // write one mapping entry and invalidate the old page
  uint64_t gc_page = 300;     // copy bookkeeping for one valid page moved by GC
  uint64_t gc_victim = 500;   // pick a victim block and recycle it
};

// An option a plug-in declares (`key` starts with "ftl."): shown in --help,
// parsed and checked by the option parser, handed to the FTL in FtlParams.
// `unit` is one of: count, size, fraction, percent, bool, time, or a choice
// list "a|b|c". Several FTLs may declare the same key (with one default).
// `idle_time`: the option shapes only idle-time work, so a value given
// without `ftl.idle_after` is refused (it would change nothing).
struct FtlOptionSpec {
  std::string key, fallback, unit, help;
  bool idle_time = false;
};

// Parsed values of the selected FTL's options: numbers in base units (bytes,
// seconds, fractions; bool 0/1), choices as text.
struct FtlOptions {
  std::map<std::string, double> number;
  std::map<std::string, std::string> text;
  std::set<std::string> user_set;  // keys the user gave a value (not left at their default)
  // An option that only matters with another option's value, set anyway,
  // would be silently ignored: FTLs refuse that with FtlConfigError.
  bool set_by_user(const std::string& key) const { return user_set.count(key) != 0; }
  double get(const std::string& key) const {
    auto it = number.find(key);
    if (it == number.end()) throw std::logic_error("FTL option '" + key + "' was not declared");
    return it->second;
  }
  const std::string& choice(const std::string& key) const {
    auto it = text.find(key);
    if (it == text.end()) throw std::logic_error("FTL option '" + key + "' was not declared");
    return it->second;
  }
};

// A configuration the FTL cannot run (e.g. more log blocks than spare
// blocks): thrown by its constructor, reported as bad input naming `key`.
struct FtlConfigError : std::invalid_argument {
  FtlConfigError(std::string option, const std::string& what) : std::invalid_argument(what), key(std::move(option)) {}
  std::string key;
};

// A DRAM-less controller's SRAM for its tables and write buffer
// (controller.sram_write_buffer): the size a DRAM-less DFTL keeps its map
// cache and translation directory in.
inline constexpr uint64_t kControllerSramBytes = 512 * 1024;

struct FtlParams {
  FlashGeometry geometry;
  double over_provisioning = 0.07;  // spare flash as a fraction of user capacity
  uint32_t gc_threshold = 2;        // GC runs when a die has fewer free blocks than this
  uint32_t map_entry_bytes = 4;     // one mapping-table entry in DRAM
  uint64_t dram_bytes = 0;          // DRAM left for the FTL after the write cache (0: DRAM-less)
  uint64_t sram_buffer_bytes = 0;   // DRAM-less: controller SRAM the write buffer takes from the FTL's tables
  FtlCycleCosts cycles;
  FtlOptions options;               // the FTL's own declared options
  uint64_t seed = 1;                // --seed: for FTLs that draw random numbers (reproducible runs)
  // Consecutive host pages a die should take before the next die: the
  // planes of a die when the firmware runs multi-plane operations
  // (nand.multiplane), so a command's pages pair up on each die; else 1.
  uint32_t die_pages = 1;
  // The host's capacity in pages, when it is not what `over_provisioning`
  // leaves of the geometry: with controller compression the FTL's pages
  // are compressed host pages, more of them than the drive offers, and the
  // difference is spare. 0: from over_provisioning (user_pages_for).
  uint64_t user_pages = 0;
};

// One host command as the firmware sees it before its pages: block-mapped
// and hybrid FTLs merge and coalesce across the pages of a command, and
// across commands that continue each other.
struct HostRun {
  enum class Op : uint8_t { Read, Write, Trim } op = Op::Read;
  uint64_t first_lpn = 0;
  uint64_t pages = 0;
  bool continues = false;  // starts at the page after the previous command of the same op ended
};

// A statistic an FTL reports (device.ftl.stats in the JSON report).
struct FtlStat {
  std::string name;
  double value = 0;
  std::string unit;         // e.g. "count", "pages", "bytes"
  std::string description;
};

struct FtlStats {
  uint64_t host_pages_written = 0;
  uint64_t flash_pages_written = 0;  // host + GC
  uint64_t gc_runs = 0;              // victim blocks reclaimed
  uint64_t gc_pages_moved = 0;
  uint64_t trimmed_pages = 0;
  uint64_t unmapped_reads = 0;       // reads of never-written or trimmed LPNs
  // Counts of another share of the same work (a bulk write's threads).
  void add(const FtlStats& o) {
    host_pages_written += o.host_pages_written;
    flash_pages_written += o.flash_pages_written;
    gc_runs += o.gc_runs;
    gc_pages_moved += o.gc_pages_moved;
    trimmed_pages += o.trimmed_pages;
    unmapped_reads += o.unmapped_reads;
  }
  double write_amplification() const {
    return host_pages_written ? double(flash_pages_written) / double(host_pages_written) : 0.0;
  }
};

// User capacity in logical pages: raw flash less the spare area, where
// `over_provisioning` is the spare as a fraction of the user capacity.
inline uint64_t user_pages_for(const FlashGeometry& g, double over_provisioning) {
  return static_cast<uint64_t>(double(g.pages()) / (1.0 + over_provisioning));
}
inline uint64_t user_pages_for(const FtlParams& p) {
  return p.user_pages ? p.user_pages : user_pages_for(p.geometry, p.over_provisioning);
}

class Ftl {
 public:
  virtual ~Ftl() = default;
  // A host command is about to be served page by page (read/write/trim).
  virtual void begin_command(const HostRun& /*run*/) {}
  // The host has been idle for ftl.idle_after: append one slice of background
  // work (its cycles, map traffic and NAND ops; apply its functional effect
  // now) and return true, or return false when there is nothing to do. The
  // firmware issues the slice's NAND ops one at a time, so a host command
  // arriving meanwhile waits only for the op in flight on its die; it keeps
  // asking for slices while the host stays idle. With ftl.idle_dies > 1 it
  // keeps several slices in flight and names the dies they occupy in
  // `work.busy_dies`: a slice on one of them waits behind the other there.
  virtual bool background(FtlWork& /*work*/) { return false; }
  // The FTL's own statistics, beyond FtlStats (merges, map-cache hits, ...).
  virtual std::vector<FtlStat> extra_stats() const { return {}; }
  // User-visible capacity in logical pages (raw flash less the spare area).
  virtual uint64_t user_pages() const = 0;
  // Serve one logical page. The version tags the data so tests can follow it.
  virtual void read(Lpn lpn, FtlWork& work) = 0;
  virtual void write(Lpn lpn, uint64_t version, FtlWork& work) = 0;
  virtual void trim(Lpn lpn, FtlWork& work) = 0;
  // Where the LPN's data lives now (invalid Ppn if unmapped).
  virtual Ppn lookup(Lpn lpn) const = 0;
  // A hint, with no effect on the result: `lpn` will be served soon (the
  // host's upcoming requests). An FTL may start loading what serving it
  // reads (its map entry) into the simulator's own CPU cache: a random
  // request's map lookup is otherwise one cache miss per IO.
  virtual void prefetch(Lpn /*lpn*/) const {}
  virtual const FtlStats& stats() const = 0;
  // Bytes of mapping table the FTL keeps in DRAM.
  virtual uint64_t map_bytes() const = 0;
  // Check internal consistency (mapping vs reverse map vs valid counts);
  // throws std::logic_error on the first inconsistency. For tests.
  virtual void check_consistency() const = 0;
  // Hint: `lpn` will be written soon (bulk preconditioning uses it to overlap
  // the mapping table's cache misses): stage 0 is called well ahead, stage 1
  // closer to the write. No effect on state.
  virtual void prefetch(Lpn, int /*stage*/) const {}
  // Preconditioning's random page writes in bulk (functional: work.record_ops
  // is false): page lpns[i] written with version first_version + i, as
  // write() one after another would. An FTL may serve them otherwise, on up
  // to `threads` threads, as long as the state and statistics it leaves are
  // exactly those of write() page by page, whatever `threads` (the block
  // FTL runs its die groups' merges side by side). This default writes them
  // in turn, fetching each page's map entry (stage 0) and what it maps to
  // (stage 1) ahead, so that the cache misses overlap.
  virtual void write_pages(const std::vector<uint32_t>& lpns, uint64_t first_version, unsigned /*threads*/,
                           FtlWork& work) {
    constexpr size_t kAhead = 16, kHalf = kAhead / 2;
    const size_t n = lpns.size();
    for (size_t i = 0; i < std::min(n, kAhead); ++i) prefetch(Lpn(lpns[i]), 0);
    for (size_t i = 0; i < std::min(n, kHalf); ++i) prefetch(Lpn(lpns[i]), 1);
    for (size_t i = 0; i < n; ++i) {
      if (i + kHalf < n) prefetch(Lpn(lpns[i + kHalf]), 1);
      if (i + kAhead < n) prefetch(Lpn(lpns[i + kAhead]), 0);
      work.clear();
      write(Lpn(lpns[i]), first_version + i, work);
    }
  }
  // Build, on an empty FTL, the state long uniform random 4 KiB overwrites
  // leave (the `steady` state phase) directly from a model of this FTL's GC,
  // instead of by writing it page by page. `version(lpn)` tags each logical
  // page's data. Return false if the FTL has no such model (the phase is
  // then refused); FtlConfigError if its options fall outside the model.
  virtual bool steady_state(uint64_t /*seed*/, const std::function<uint64_t(uint64_t)>& /*version*/) { return false; }
  // Save (or, on a freshly built FTL of the same configuration, load) the
  // whole functional state through `c` (checkpoint.h: one walk serves both
  // directions). Return false if this FTL cannot (--save-state and
  // --load-state are then refused).
  virtual bool checkpoint(Checkpoint& /*c*/) { return false; }
  // Zero the statistics (after preconditioning, before the timed phase).
  virtual void reset_stats() = 0;
};

using FtlFactory = std::function<std::unique_ptr<Ftl>(const FtlParams&, FlashMedia&)>;
// The bytes of mapping table (what map_bytes() will say) an FTL built from
// these parameters keeps in DRAM, known before it is built: the controller
// refuses a DRAM too small for it before the FTL allocates its own tables
// (a page map of a 4 TiB drive is GiBs of the simulator's memory, built for
// nothing). It checks the parameters it uses as the constructor would
// (FtlConfigError). Optional: without one, the check follows the build.
using FtlTableBytes = std::function<uint64_t(const FtlParams&)>;

// Name -> factory and declared options. Plug-ins register themselves from
// their own .cpp (FtlRegistration), or from a shared library's entry point.
class FtlRegistry {
 public:
  struct Entry {
    std::string description;
    FtlFactory factory;
    std::vector<FtlOptionSpec> options;
    FtlTableBytes table_bytes;  // may be empty
  };
  static FtlRegistry& instance();
  void add(const std::string& name, const std::string& description, FtlFactory f,
           std::vector<FtlOptionSpec> options = {}, FtlTableBytes table_bytes = {});
  // Throws std::invalid_argument naming the known plug-ins.
  std::unique_ptr<Ftl> create(const std::string& name, const FtlParams& p, FlashMedia& m) const;
  // The FTL's FtlTableBytes for `p`; nothing if it has none (or no such FTL:
  // create() says so).
  std::optional<uint64_t> table_bytes(const std::string& name, const FtlParams& p) const;
  std::map<std::string, std::string> list() const;
  const std::map<std::string, Entry>& entries() const { return entries_; }

 private:
  std::map<std::string, Entry> entries_;
};

struct FtlRegistration {
  FtlRegistration(const std::string& name, const std::string& description, FtlFactory f,
                  std::vector<FtlOptionSpec> options = {}, FtlTableBytes table_bytes = {}) {
    FtlRegistry::instance().add(name, description, std::move(f), std::move(options), std::move(table_bytes));
  }
};

// Load a plug-in shared library: check its API version, then let it
// register its FTLs. Throws std::runtime_error naming the file and the cause.
void load_plugin(const std::string& path);

}  // namespace ssd::ftl

// The entry points of an out-of-tree plug-in (one per shared library):
//   SSDSIM_FTL_PLUGIN(registry) { registry.add("mine", "...", factory, options); }
// Exported even from a library built with -fvisibility=hidden.
#define SSDSIM_FTL_PLUGIN(registry)                                                                  \
  extern "C" __attribute__((visibility("default"))) int ssdsim_ftl_plugin_api() {                    \
    return ::ssd::ftl::kFtlApiVersion;                                                               \
  }                                                                                                  \
  extern "C" __attribute__((visibility("default"))) void ssdsim_ftl_plugin_register(                 \
      ::ssd::ftl::FtlRegistry& registry)
