#pragma once
// Trace replay. TraceSource turns a trace reader's records into host
// requests: it applies the filters (device, time window, operation), the
// address policy (subtract an offset; wrap or reject addresses beyond the
// simulated capacity) and the timing mode (timed: recorded arrivals scaled by
// 1/speed; afap: closed loop), and accounts for every record it reads.
// ReplayRun is the CLI's glue: it picks the trace, the fio job file's jobs or
// the synthetic workload, attaches the latency log, the time series and the
// per-job fio statistics, and adds the `trace` section and fio's envelope.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/sim/config.h"
#include "model/sim/fio_report.h"
#include "model/host/fio_workload.h"
#include "model/sim/io_logs.h"
#include "model/host/io_source.h"
#include "model/sim/options.h"
#include "model/sim/simulation.h"
#include "traces/trace_reader.h"

namespace ssd {

class TraceSource : public IoSource {
 public:
  // Throws traces::TraceError if the trace cannot be opened or detected.
  TraceSource(const ReplayConfig& cfg, uint64_t capacity_bytes);
  bool next(HostRequest& req, const sc_core::sc_time& now) override;
  std::string describe() const override;

  // A bad record stops the replay; the error is kept and rethrown by check().
  void check() const;
  // The `trace` report section: every record read, replayed or filtered and why.
  nlohmann::json accounting() const;
  const std::string& format() const { return format_; }
  // --powerfail.at=trace: told the time of the trace's powerfail record (its
  // arrival when timed, the moment it is reached in afap). Without it a
  // powerfail record is bad input.
  void on_power_cut(std::function<void(const sc_core::sc_time&)> f) { on_power_cut_ = std::move(f); }
  // Timed: the arrival of the trace's powerfail record (within the filters),
  // read ahead of the run; none if it has none. Throws traces::TraceError.
  std::optional<sc_core::sc_time> find_power_cut();
  bool power_cut() const { return cut_found_ || power_cuts_ > 0; }
  // As SyntheticWorkload::on_lookahead: `f` hears of each request kLookahead
  // requests before next() returns it (speed only: the replay, its
  // accounting and its errors are those without it, but for the reader's
  // ignored events of a replay cut short, which counts what it read ahead).
  static constexpr uint32_t kLookahead = 8;
  void on_lookahead(std::function<void(const HostRequest&)> f) { lookahead_ = std::move(f); }

 private:
  ReplayConfig cfg_;
  uint64_t capacity_;
  uint64_t window_start_ns_, window_end_ns_;  // trace.start / trace.end (0: none)
  std::string format_;
  // Map a record's address into the drive (trace.offset, trace.beyond);
  // throws TraceError where the request cannot be placed.
  void place(const traces::TraceRecord& rec, uint64_t& offset, uint64_t& bytes);
  traces::ReaderOptions reader_options() const;
  // Why a record is not replayed (its name in the report: kFilterNames).
  enum Filter { kDevice, kBeforeStart, kAfterEnd, kOperation, kZeroLength, kFilters };
  static const char* const kFilterNames[kFilters];
  // Why the device and time filters drop `rec`, or -1.
  int window(const traces::TraceRecord& rec) const;
  // When the record arrives at the host (timed mode): its trace time from
  // trace.start, scaled by 1/trace.speed; throws TraceError beyond a run's reach.
  sc_core::sc_time arrival(const traces::TraceRecord& rec) const;
  // "line N" or "byte offset N" of a record, as its format counts.
  std::string where(const traces::TraceRecord& rec) const;

  // What reading on produced: a request, the powerfail record, an error (the
  // replay stops there), or the end; and the records read and filtered on
  // the way, counted when it is taken (so a replay cut short counts what it
  // reached, as without reading ahead).
  struct Ahead {
    enum class Kind : uint8_t { Request, Cut, Error, End } kind = Kind::End;
    HostRequest req;
    uint64_t read = 0;
    uint32_t filtered[kFilters] = {};  // by Filter
    std::string error;                 // Error: the message
    std::string file, where;           // Cut: the record's place, for the messages taking it may give
  };
  // Read on to the next request (or cut, error, end).
  void produce(Ahead& a);
  // Take `a` (count its records); true with `req` for a request.
  bool take(Ahead& a, HostRequest& req, const sc_core::sc_time& now);
  std::function<void(const HostRequest&)> lookahead_;
  std::vector<Ahead> ring_;  // kLookahead slots
  uint32_t ring_first_ = 0, ring_count_ = 0;
  bool produced_last_ = false;  // an End or Error is in the ring: read no more

  std::unique_ptr<traces::TraceReader> reader_;
  std::optional<std::string> error_;
  uint64_t read_ = 0, replayed_ = 0, remapped_ = 0, power_cuts_ = 0;
  bool cut_found_ = false;
  std::function<void(const sc_core::sc_time&)> on_power_cut_;
  std::map<std::string, uint64_t> filtered_;
};

// Write the configured synthetic workload's requests to `cfg.export_trace`
// (arrival time 0: replay them with --trace.mode=afap), so the same IOs can
// be replayed here or on another simulator. Throws OptionError.
void export_synthetic_trace(const SimConfig& cfg, uint64_t span);

class ReplayRun {
 public:
  ReplayRun(const SimConfig& cfg, const Options& opts, Simulation& sim);
  // Run the trace (or the synthetic workload); throws OptionError for bad input.
  void run();
  // Add the `trace`, `drive` and `workload` descriptions to the report.
  void annotate(nlohmann::json& report) const;
  // fio's envelope ("fio version", "global options", "jobs", ...), to merge into the report.
  nlohmann::json fio_envelope(const std::string& version, bool json_plus) const;

 private:
  // The simulation of run(), without its logs' closing.
  void simulate();
  const SimConfig& cfg_;
  const Options& opts_;
  Simulation& sim_;
  std::unique_ptr<TraceSource> source_;
  std::vector<std::unique_ptr<FioWorkload>> jobs_;  // --job
  std::unique_ptr<FioReport> fio_;
  std::unique_ptr<LatencyLog> latency_log_;
  std::unique_ptr<TimeSeries> timeseries_;
};

}  // namespace ssd
