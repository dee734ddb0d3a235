#pragma once
// `--powerfail.at T`: power is cut at simulated time T (`--powerfail.at=trace`:
// at the replayed trace's powerfail record, its time learnt when the host
// reaches the record: until then what is seen is kept and judged at the
// cut). What the host had been told was written, and what the flash holds,
// are compared:
//
// - acknowledged: every write command the host saw complete by T;
// - durable: every host page whose program finished on the die by T, or by
//   T + `dram.plp` when the drive has power-loss protection (capacitors keep
//   the controller running that long after the cut, so the write cache and
//   the programs in flight can finish);
// - recovered: per logical page, what the firmware finds when it rebuilds
//   its map from the flash at the next power-on: the newest durable version
//   (each programmed page carries its LPN and version in its spare area;
//   pages written before the timed phase are durable);
// - lost: logical pages whose last acknowledged version is newer than the
//   recovered one (acknowledged from the volatile write cache, or a program
//   still in flight). Reported in count, bytes and LBA ranges
//   (`--powerfail.lost FILE`: one CSV row per range).
//
// After recovery every logical page reads its last acknowledged version, a
// newer one whose write was in flight at the cut (the host never saw it
// complete), or it is in the lost list. The check: a drive without a
// volatile write cache acknowledges a write only once it is on flash, so a
// lost page there is a model error (exit 3).
//
// Assumption (stated in docs/architecture.md): GC never makes a durable
// page undurable: a victim's erase follows, on its die, the programs of its
// copies, so a copy in flight at the cut leaves the original in place.
// TRIM is taken as durable when it completes.

#include <systemc>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/host/content_shadow.h"
#include "model/host/io_source.h"

namespace ssd {

class PowerFail {
 public:
  // `at`: the cut; `holdup`: how long the drive keeps working after it
  // (dram.plp; zero without protection). `baseline`: the tag of every
  // logical page when the timed phase starts (preconditioned data).
  // `at` zero: not yet known (cut() tells it).
  PowerFail(sc_core::sc_time at, sc_core::sc_time holdup, std::vector<uint64_t> baseline, uint32_t page_size);
  // The cut is at `at` (a trace's powerfail record).
  void cut(const sc_core::sc_time& at);
  bool cut_known() const { return known_; }

  // A host page's program (version `tag` of `lpn`), issued now, ends at `done`.
  void programmed(uint64_t lpn, uint64_t tag, const sc_core::sc_time& done);
  // A host command completed.
  void completed(const IoCompletion& c, uint64_t tag);
  // After the run: recover, check (throws ContentMismatch), write the CSV.
  // `volatile_cache`: the drive acknowledged writes from a volatile buffer
  // (a DRAM write cache, or an FTL's own SRAM buffer).
  void analyse(const std::string& lost_csv, bool volatile_cache);
  nlohmann::json report() const;

 private:
  struct Program {
    uint64_t lpn, tag;
    sc_core::sc_time issued, done;
  };
  struct Completion {
    uint64_t offset, bytes, tag;
    sc_core::sc_time at;
  };
  void program(const Program& p);
  void complete(const Completion& c);

  sc_core::sc_time at_, holdup_;
  bool known_;
  std::vector<Program> programs_seen_;        // before the cut is known
  std::vector<Completion> completions_seen_;  // (write completions only)
  uint32_t page_size_;
  std::vector<uint64_t> durable_;  // per LPN: newest durable version (baseline first)
  std::vector<uint64_t> acked_;    // per LPN: last acknowledged version (0: none in the timed phase)
  bool analysed_ = false;  // analyse() ran: the check passed (else it throws)
  uint64_t acked_writes_ = 0, programs_ = 0, late_programs_ = 0;
  uint64_t lost_pages_ = 0, landed_pages_ = 0, lost_ranges_ = 0;
};

}  // namespace ssd
