#pragma once
// The FTL plug-in interface: the firmware running on the controller CPU calls
// it once per logical page of each host command. The FTL owns the mapping,
// keeps the flash media's functional state, and says what the command costs:
// CPU cycles, mapping-table accesses in DRAM, and the NAND operations (with
// their order) that the firmware must then schedule on the flash.
//
// Plug-ins register by name (FtlRegistry) and are chosen by `ftl.name`.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/nand/flash_media.h"
#include "model/nand/geometry.h"

namespace ssd::ftl {

// One NAND array operation the firmware must schedule.
struct FlashOp {
  enum class Kind : uint8_t { Read, Program, Erase } kind;
  Ppn ppn;             // page (for Erase: first page of the block)
  bool gc = false;     // caused by garbage collection, not the host page
  // Start no earlier than the completion of ops[after] (-1: no dependency),
  // or of every earlier op when `barrier` is set.
  int32_t after = -1;
  bool barrier = false;
};

// What serving one logical page costs; the firmware turns it into time.
struct FtlWork {
  uint64_t cpu_cycles = 0;   // firmware work on the controller core
  uint32_t map_reads = 0;    // mapping-table entries read from DRAM
  uint32_t map_writes = 0;   // mapping-table entries written to DRAM
  std::vector<FlashOp> ops;
  // Functional-only runs (preconditioning) have no timing: skip listing ops.
  bool record_ops = true;
  void add(const FlashOp& op) {
    if (record_ops) ops.push_back(op);
  }
  void clear() { cpu_cycles = 0; map_reads = map_writes = 0; ops.clear(); }
};

// Firmware cost of each FTL step, in controller cycles (config `cpu.cycles.*`).
struct FtlCycleCosts {
  uint64_t lookup = 150;      // translate one LPN
  uint64_t map_update = 200;  // write one mapping entry and invalidate the old page
  uint64_t gc_page = 300;     // copy bookkeeping for one valid page moved by GC
  uint64_t gc_victim = 500;   // pick a victim block and recycle it
};

struct FtlParams {
  FlashGeometry geometry;
  double over_provisioning = 0.07;  // spare flash as a fraction of user capacity
  uint32_t gc_threshold = 2;        // GC runs when a die has fewer free blocks than this
  uint32_t map_entry_bytes = 4;     // one mapping-table entry in DRAM
  FtlCycleCosts cycles;
};

struct FtlStats {
  uint64_t host_pages_written = 0;
  uint64_t flash_pages_written = 0;  // host + GC
  uint64_t gc_runs = 0;              // victim blocks reclaimed
  uint64_t gc_pages_moved = 0;
  uint64_t trimmed_pages = 0;
  uint64_t unmapped_reads = 0;       // reads of never-written or trimmed LPNs
  double write_amplification() const {
    return host_pages_written ? double(flash_pages_written) / double(host_pages_written) : 0.0;
  }
};

// User capacity in logical pages: raw flash less the spare area, where
// `over_provisioning` is the spare as a fraction of the user capacity.
inline uint64_t user_pages_for(const FlashGeometry& g, double over_provisioning) {
  return static_cast<uint64_t>(double(g.pages()) / (1.0 + over_provisioning));
}

class Ftl {
 public:
  virtual ~Ftl() = default;
  // User-visible capacity in logical pages (raw flash less the spare area).
  virtual uint64_t user_pages() const = 0;
  // Serve one logical page. The version tags the data so tests can follow it.
  virtual void read(Lpn lpn, FtlWork& work) = 0;
  virtual void write(Lpn lpn, uint64_t version, FtlWork& work) = 0;
  virtual void trim(Lpn lpn, FtlWork& work) = 0;
  // Where the LPN's data lives now (invalid Ppn if unmapped).
  virtual Ppn lookup(Lpn lpn) const = 0;
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
  // Zero the statistics (after preconditioning, before the timed phase).
  virtual void reset_stats() = 0;
};

using FtlFactory = std::function<std::unique_ptr<Ftl>(const FtlParams&, FlashMedia&)>;

// Name -> factory. Plug-ins register themselves from their own .cpp.
class FtlRegistry {
 public:
  static FtlRegistry& instance();
  void add(const std::string& name, const std::string& description, FtlFactory f);
  // Throws std::invalid_argument naming the known plug-ins.
  std::unique_ptr<Ftl> create(const std::string& name, const FtlParams& p, FlashMedia& m) const;
  std::map<std::string, std::string> list() const;

 private:
  std::map<std::string, std::pair<std::string, FtlFactory>> entries_;
};

struct FtlRegistration {
  FtlRegistration(const std::string& name, const std::string& description, FtlFactory f) {
    FtlRegistry::instance().add(name, description, std::move(f));
  }
};

}  // namespace ssd::ftl
