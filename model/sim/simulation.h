#pragma once
// One simulation run: build the drive and the host, precondition the drive
// functionally, run the timed phase, and gather the statistics as JSON.
// SystemC allows one elaboration per process, so one Simulation per process.

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/sim/activity.h"
#include "model/sim/config.h"
#include "model/host/content_shadow.h"
#include "model/host/host.h"
#include "model/host/io_source.h"
#include "model/sim/power_fail.h"
#include "model/sim/ssd_drive.h"
#include "model/hdd/hdd_drive.h"

namespace ssd {

class Simulation {
 public:
  explicit Simulation(const SimConfig& cfg);
  ~Simulation();

  SsdDrive& drive() { return *drive_; }  // the SSD (not with device = hdd)
  // The drive's user capacity in bytes (SSD or hard disk).
  uint64_t user_bytes() const;
  // The synthetic workload's LBA span (workload.size or the user capacity).
  uint64_t workload_span() const;

  // Precondition, then run `source` (the configured synthetic workload if
  // null) with `iodepth` NCQ slots until it is exhausted or the runtime ends.
  // Rethrows what stopped the run early (a firmware error, a failed content
  // check: exit 3); throws OptionError when the run would outgrow SystemC's
  // time range (exit 2). SIGINT or SIGTERM (model/sim/interrupt.h) stops
  // the timed phase at the next completion (stop_reason "interrupted"), and
  // preconditioning by throwing Interrupted.
  void run(IoSource* source = nullptr, uint32_t iodepth = 0);
  // Precondition, then run several streams (fio jobs) at once on the drive.
  void run(const std::vector<HostStream>& streams);
  // --powerfail.at=trace: the power goes at `at`. Before the run (a timed
  // replay's record): as with --powerfail.at; during it (a closed-loop
  // replay reaching the record), `at` is now and the run pauses.
  void cut_power(const sc_time& at);
  // Called for every completed IO (latency logs, time series).
  void on_completion(std::function<void(const IoCompletion&)> f) { observers_.push_back(std::move(f)); }

  const Host& host() const { return *host_; }
  // What ran: the source's own description.
  std::string workload_description() const;
  // fio-style read/write/trim sections and the device section.
  nlohmann::json report() const;
  // The device section of a hard disk's report.
  nlohmann::json hdd_report(const sc_time& elapsed) const;

 private:
  SimConfig cfg_;
  std::unique_ptr<SsdDrive> drive_;      // device = ssd
  std::unique_ptr<HddDrive> hdd_;        // device = hdd
  std::unique_ptr<ActivityRecorder> activity_;  // --vcd / --activity only
  std::unique_ptr<IoSource> synthetic_;
  std::unique_ptr<ContentShadow> shadow_;  // check.content only
  std::unique_ptr<Host> host_;
  std::unique_ptr<PowerFail> power_fail_;  // --powerfail.at only
  std::vector<HostStream> streams_;
  std::vector<std::function<void(const IoCompletion&)>> observers_;
  double precondition_s_ = 0, timed_s_ = 0;
  uint64_t kernel_deltas_ = 0;
  std::string state_name_;  // the drive state's name for the report (a loaded one says from where)
  std::vector<StatePhaseResult> state_;  // what the drive state's phases did  // SystemC evaluation rounds of the timed phase
  uint64_t expected_ios_ = 0;  // IOs the run ends after, if known (progress line); 0 = unknown
};

}  // namespace ssd
