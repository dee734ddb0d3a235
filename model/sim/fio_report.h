#pragma once
// fio's JSON envelope around ssdsim's report: "fio version", "timestamp",
// "global options" and "jobs", one job per host stream (a job-file job, the
// synthetic --workload, or the replayed trace), with fio's per-direction
// blocks (read, write, trim, sync) computed from that job's completions.
// The layout follows fio's JSON output so fio's consumers read it; the field
// meanings are in docs/report.md.
//
// Per job, as fio: IOs completing before ramp_time are not counted; the
// job's runtime runs from ramp_time (or 0) to its last counted completion;
// latency_ns/us/ms hold the percentage of the job's reads, writes and trims
// whose clat falls in each of fio's buckets; iops_* and bw_* summarise one
// sample per whole interval (iopsavgtime / bwavgtime, from the job's start;
// the last, partial interval is dropped as fio drops it).

#include <array>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/host/fio_job.h"
#include "model/host/host.h"
#include "model/host/io_source.h"

namespace ssd {

// A latency summary in fio's layout (ns): min, max, mean, stddev, N, and
// "percentile" at fio's points (fio leaves it out when there is no sample;
// `percentiles_when_empty` keeps it, zeros, as the ssdsim report always
// has it); `bins`: also the histogram's bins (fio's json+).
nlohmann::json latency_json(const LatencyStats& l, bool bins, bool percentiles_when_empty = false);

struct FioJobInfo {
  std::string name;
  FioOptionList options;  // fio's "job options"
  sc_core::sc_time ramp_time = sc_core::SC_ZERO_TIME;
  sc_core::sc_time iops_interval = sc_core::sc_time(500, sc_core::SC_MS);
  sc_core::sc_time bw_interval = sc_core::sc_time(500, sc_core::SC_MS);
};

class FioReport {
 public:
  FioReport(std::vector<FioJobInfo> jobs, FioOptionList global);
  // One completion; its stream index is the job.
  void add(const IoCompletion& c);
  // The envelope's keys, to merge into the report. `json_plus` adds
  // clat_ns.bins (fio's --output-format=json+).
  nlohmann::json envelope(const std::string& version, bool json_plus) const;
  // One job without ramp_time sees exactly what the host saw: its latency
  // statistics are then the host's (given after the run), not recorded twice.
  bool mirrors_host() const { return jobs_.size() == 1 && jobs_[0].info.ramp_time == sc_core::SC_ZERO_TIME; }
  void set_host(const Host& host) { host_ = &host; }

 private:
  // Per-interval samples of one quantity (IOs or bytes per interval).
  struct Samples {
    uint64_t index = 0, current = 0;  // interval being counted and its total so far
    std::vector<uint64_t> done;       // totals of closed intervals
    void add(uint64_t t_ns, uint64_t start_ns, uint64_t interval_ns, uint64_t amount);
  };
  struct Job {
    FioJobInfo info;
    std::array<OpStats, 4> ops;  // read, write, trim, flush (fio's sync)
    std::array<Samples, 3> iops, bw;
    std::array<uint64_t, 10> lat_n{}, lat_u{};
    std::array<uint64_t, 12> lat_m{};
    uint64_t last_ns = 0;
  };
  nlohmann::json job_json(const Job& j, double agg_bytes_per_s[3], bool json_plus) const;

  const OpStats& stats(const Job& j, size_t op) const {
    return mirrors_host() ? host_->stats(ssdtlm::HostOp(op)) : j.ops[op];
  }

  std::vector<Job> jobs_;
  FioOptionList global_;
  const Host* host_ = nullptr;
};

}  // namespace ssd
