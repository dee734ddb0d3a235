#include "model/sim/replay.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "model/host/workload.h"

namespace ssd {

using traces::TraceOp;

TraceSource::TraceSource(const ReplayConfig& cfg, uint64_t capacity_bytes)
    : cfg_(cfg), capacity_(capacity_bytes), window_start_ns_(ssdtlm::to_ns(cfg.window_start)),
      window_end_ns_(ssdtlm::to_ns(cfg.window_end)) {
  format_ = cfg.format.empty() ? traces::detect_format(cfg.path) : cfg.format;
  reader_ = traces::open_trace(cfg.path, format_, reader_options());
}

traces::ReaderOptions TraceSource::reader_options() const {
  traces::ReaderOptions ro;
  ro.arrival = cfg_.arrival_issue ? traces::ReaderOptions::Arrival::Issue : traces::ReaderOptions::Arrival::Queue;
  ro.skip_bad = cfg_.skip_bad;
  ro.sector_size = cfg_.sector_size;
  return ro;
}

const char* const TraceSource::kFilterNames[kFilters] = {"device", "before trace.start", "after trace.end",
                                                         "operation", "zero length"};

void TraceSource::produce(Ahead& a) {
  a.kind = Ahead::Kind::End;
  a.read = 0;
  std::fill(std::begin(a.filtered), std::end(a.filtered), 0u);
  traces::TraceRecord rec;
  try {
    while (reader_->next(rec)) {
      ++a.read;
      int why = window(rec);
      if (why < 0 && rec.op == TraceOp::PowerFail) {
        if (!on_power_cut_)
          throw traces::TraceError(std::string(rec.source), where(rec),
                                   "a powerfail record needs --powerfail.at=trace (else it would be ignored)");
        a.kind = Ahead::Kind::Cut;
        a.file = rec.source;
        a.where = where(rec);
        return;
      }
      const bool kept = (rec.op == TraceOp::Read && cfg_.keep_read) || (rec.op == TraceOp::Write && cfg_.keep_write) ||
                        (rec.op == TraceOp::Discard && cfg_.keep_discard) || (rec.op == TraceOp::Flush && cfg_.keep_flush);
      if (why < 0 && !kept) why = kOperation;
      else if (why < 0 && rec.op != TraceOp::Flush && rec.bytes == 0) why = kZeroLength;
      if (why >= 0) {
        ++a.filtered[why];
        continue;
      }
      uint64_t offset = rec.offset, bytes = rec.bytes;
      if (rec.op != TraceOp::Flush) place(rec, offset, bytes);
      HostRequest& req = a.req;
      req.op = rec.op == TraceOp::Read    ? ssdtlm::HostOp::Read
               : rec.op == TraceOp::Write ? ssdtlm::HostOp::Write
               : rec.op == TraceOp::Discard ? ssdtlm::HostOp::Trim
                                            : ssdtlm::HostOp::Flush;
      req.offset = rec.op == TraceOp::Flush ? 0 : offset;
      req.bytes = rec.op == TraceOp::Flush ? 0 : bytes;
      req.timed = cfg_.timed;
      req.arrival = arrival(rec);
      a.kind = Ahead::Kind::Request;
      return;
    }
  } catch (const traces::TraceError& e) {
    a.kind = Ahead::Kind::Error;
    a.error = e.what();
  }
}

bool TraceSource::take(Ahead& a, HostRequest& req, const sc_core::sc_time& now) {
  read_ += a.read;
  for (int k = 0; k < kFilters; ++k)
    if (a.filtered[k]) filtered_[kFilterNames[k]] += a.filtered[k];
  switch (a.kind) {
    case Ahead::Kind::Request:
      req = a.req;
      req.id = replayed_++;
      return true;
    case Ahead::Kind::Cut:
      if (power_cuts_++)
        error_ = traces::TraceError(a.file, a.where, "a second powerfail record: the power is out").what();
      // Timed: find_power_cut() found it before the run, which stops there.
      else if (!cfg_.timed && now == sc_core::SC_ZERO_TIME)
        error_ = traces::TraceError(a.file, a.where, "a powerfail record at the replay's start").what();
      else if (!cfg_.timed)
        on_power_cut_(now);
      return false;
    case Ahead::Kind::Error: error_ = a.error; return false;
    case Ahead::Kind::End: return false;
  }
  return false;
}

bool TraceSource::next(HostRequest& req, const sc_core::sc_time& now) {
  // Without a lookahead: one slot, produced and taken at once.
  const uint32_t depth = lookahead_ ? kLookahead : 1;
  if (ring_.empty()) ring_.resize(depth);
  for (;;) {
    if (error_) return false;
    while (!produced_last_ && ring_count_ < depth) {
      Ahead& a = ring_[(ring_first_ + ring_count_) % depth];
      produce(a);
      ++ring_count_;
      if (a.kind == Ahead::Kind::End || a.kind == Ahead::Kind::Error) produced_last_ = true;
      else if (a.kind == Ahead::Kind::Request && lookahead_) lookahead_(a.req);
    }
    if (ring_count_ == 0) return false;
    Ahead& a = ring_[ring_first_];
    ring_first_ = (ring_first_ + 1) % depth;
    --ring_count_;
    if (take(a, req, now)) return true;
    if (a.kind == Ahead::Kind::End || a.kind == Ahead::Kind::Error) return false;
    // A cut: read on (the host's slots keep asking until the run pauses).
  }
}

int TraceSource::window(const traces::TraceRecord& rec) const {
  if (cfg_.device >= 0 && rec.device != uint64_t(cfg_.device)) return kDevice;
  if (rec.time_ns < window_start_ns_) return kBeforeStart;
  if (window_end_ns_ && rec.time_ns >= window_end_ns_) return kAfterEnd;
  return -1;
}

std::optional<sc_core::sc_time> TraceSource::find_power_cut() {
  // A pass of its own over the trace: the host reads the replay's records
  // only as its queue takes them, which can be long after they arrived.
  auto reader = traces::open_trace(cfg_.path, format_, reader_options());
  traces::TraceRecord rec;
  while (reader->next(rec)) {
    if (rec.op == TraceOp::PowerFail && window(rec) < 0) {
      const sc_core::sc_time at = arrival(rec);
      if (at == sc_core::SC_ZERO_TIME)
        throw traces::TraceError(std::string(rec.source), where(rec), "a powerfail record at the replay's start");
      cut_found_ = true;
      return at;
    }
  }
  return std::nullopt;
}

sc_core::sc_time TraceSource::arrival(const traces::TraceRecord& rec) const {
  const double t = double(rec.time_ns - window_start_ns_) / cfg_.speed;
  if (cfg_.timed && t > Host::kTimeLimitSeconds * 1e9)
    throw traces::TraceError(std::string(rec.source), where(rec),
                             "arrival " + std::to_string(t / 1e9) + " s after the start (after trace.speed) is " +
                                 "beyond the simulated time a run can reach");
  return sc_core::sc_time(t, sc_core::SC_NS);
}

std::string TraceSource::where(const traces::TraceRecord& rec) const {
  // Binary formats locate a record by byte offset, text formats by line.
  return format_ == "blktrace" ? "byte offset " + std::to_string(rec.position) : "line " + std::to_string(rec.position);
}

void TraceSource::place(const traces::TraceRecord& rec, uint64_t& offset, uint64_t& bytes) {
  // Every comparison is written so that nothing can wrap: trace offsets may
  // be anywhere up to 2^64 - 1.
  const auto fail = [&](const std::string& what) { throw traces::TraceError(std::string(rec.source), where(rec), what); };
  bool remapped = false;
  if (offset >= cfg_.offset) {
    offset -= cfg_.offset;
  } else {
    if (!cfg_.wrap) fail("address below trace.offset");
    const uint64_t back = (cfg_.offset - offset) % capacity_;  // wrap backwards into the drive
    offset = back ? capacity_ - back : 0;
    remapped = true;
  }
  if (rec.op == TraceOp::Discard && bytes > capacity_ && cfg_.wrap) {
    // A discard of more than the simulated drive (fstrim of a larger
    // device) trims the whole drive.
    offset = 0;
    bytes = capacity_ / 512 * 512;
    remapped = true;
  } else if (bytes > capacity_) {
    fail("request of " + std::to_string(bytes) + " bytes is larger than the drive");
  }
  if ((rec.op == TraceOp::Read || rec.op == TraceOp::Write) && bytes > ssdtlm::kMaxCommandBytes)
    fail("request of " + std::to_string(bytes) + " bytes " + ssdtlm::kMaxCommandRefusal);
  if (offset > capacity_ - bytes) {
    if (!cfg_.wrap)
      fail("address " + std::to_string(offset) + " + " + std::to_string(bytes) + " is beyond the drive's capacity of " +
           std::to_string(capacity_) + " bytes (trace.beyond=error)");
    // Wrap modulo the capacity, keeping sector alignment and the request whole.
    offset = (offset % capacity_) / 512 * 512;
    if (offset > capacity_ - bytes) offset = (capacity_ - bytes) / 512 * 512;
    remapped = true;
  }
  if (remapped) ++remapped_;  // a record counts once, however it was moved
}

void TraceSource::check() const {
  if (error_) throw OptionError(*error_);
}

std::string TraceSource::describe() const {
  return "trace " + cfg_.path + " (" + format_ + ", " + (cfg_.timed ? "timed" : "afap") +
         ", iodepth " + std::to_string(cfg_.iodepth) + ")";
}

nlohmann::json TraceSource::accounting() const {
  const traces::ReaderStats& rs = reader_->stats();
  uint64_t skipped = 0;
  for (const auto& [why, n] : rs.skipped) skipped += n;
  return {{"path", cfg_.path},         {"format", format_},
          {"mode", cfg_.timed ? "timed" : "afap"},
          {"records_read", read_},     {"replayed", replayed_},
          {"power_cuts", power_cuts_},
          {"filtered", [&] { uint64_t n = 0; for (auto& [k, v] : filtered_) n += v; return n; }()},
          {"filtered_by", filtered_},  {"remapped", remapped_},
          {"skipped_bad", skipped},    {"skipped_by", rs.skipped},
          {"resync_bytes", rs.resync_bytes},
          {"ignored_events", rs.ignored}};
}

void export_synthetic_trace(const SimConfig& cfg, uint64_t span) {
  const uint64_t seed = cfg.workload.randseed ? cfg.workload.randseed : cfg.seed;
  SyntheticWorkload w(cfg.workload, span, seed);
  try {
    auto writer = traces::create_trace_writer(cfg.export_trace, cfg.export_format);
    HostRequest req;
    traces::TraceRecord rec;
    while (w.next(req, sc_core::SC_ZERO_TIME)) {
      rec.op = req.op == ssdtlm::HostOp::Read ? TraceOp::Read : TraceOp::Write;
      rec.offset = req.offset;
      rec.bytes = req.bytes;
      writer->write(rec);
    }
    writer->close();
  } catch (const std::exception& e) {
    throw OptionError(std::string("option 'export-trace': ") + e.what());  // (what() names the file)
  }
}

ReplayRun::ReplayRun(const SimConfig& cfg, const Options& opts, Simulation& sim) : cfg_(cfg), opts_(opts), sim_(sim) {
  try {
    if (!cfg.replay.path.empty())
      source_ = std::make_unique<TraceSource>(cfg.replay, sim.user_bytes());
  } catch (const traces::TraceError& e) {
    throw OptionError(e.what());
  }
  try {
    if (!cfg.latency_log.empty()) latency_log_ = std::make_unique<LatencyLog>(cfg.latency_log, cfg.latency_log_fio);
    if (!cfg.timeseries.empty()) timeseries_ = std::make_unique<TimeSeries>(cfg.timeseries, cfg.timeseries_interval);
  } catch (const std::runtime_error& e) {
    throw opts.error(latency_log_ || cfg.latency_log.empty() ? "timeseries" : "latency-log", e.what());
  }
  // Speed only: the controller prefetches the map entries of requests to
  // come. Only for a replay that reads the whole trace: one cut short (a
  // runtime, a power cut) would have read ahead of where it stopped, and
  // the reader's ignored-event counts would say so.
  if (source_ && !cfg.hdd && cfg.raid.members == 1 && cfg.workload.runtime == sc_core::SC_ZERO_TIME &&
      !cfg.powerfail())
    source_->on_lookahead([&sim](const HostRequest& r) { sim.drive().controller.prefetch(r.offset); });
  if (source_ && cfg.powerfail_from_trace) {
    source_->on_power_cut([&sim](const sc_core::sc_time& at) { sim.cut_power(at); });
    try {
      // Timed: the cut's time is known before the run (the record's arrival).
      if (cfg.replay.timed)
        if (const auto at = source_->find_power_cut()) sim.cut_power(*at);
    } catch (const traces::TraceError& e) {
      throw OptionError(e.what());
    }
  }
  // One fio job per host stream: the job file's jobs, or the trace, or the synthetic workload.
  std::vector<FioJobInfo> infos;
  const uint64_t capacity = sim.user_bytes();
  for (size_t i = 0; i < cfg.jobs.jobs.size(); ++i) {
    const FioJob& job = cfg.jobs.jobs[i];
    // Each job its own generator: randseed (or --seed) mixed with its place in the file, so clones differ.
    const uint64_t seed = (job.randseed ? *job.randseed : cfg.seed) ^ (0x9e3779b97f4a7c15ull * i);
    jobs_.push_back(std::make_unique<FioWorkload>(job, capacity, seed));
    infos.push_back({job.name, job.options, job.ramp_time, job.iopsavgtime, job.bwavgtime});
  }
  if (infos.empty()) {
    FioJobInfo info;
    info.iops_interval = info.bw_interval = cfg.report_avgtime;
    const auto values = opts.values();
    if (source_) {
      info.name = "trace";
      info.options = {{"read_iolog", cfg.replay.path}, {"iodepth", std::to_string(cfg.replay.iodepth)}, {"numjobs", "1"}};
    } else {
      info.name = "workload";
      for (const char* k : {"rw", "bs", "iodepth", "rwmixread", "percentage_random", "size", "offset", "number_ios",
                            "runtime", "randseed"})
        info.options.emplace_back(k, values.at(std::string("workload.") + k));
      info.options.emplace_back("numjobs", "1");
    }
    infos.push_back(info);
  }
  fio_ = std::make_unique<FioReport>(infos, cfg.jobs.global);
  sim.on_completion([this](const IoCompletion& c) { fio_->add(c); });
  if (latency_log_) sim.on_completion([this](const IoCompletion& c) { latency_log_->add(c); });
  if (timeseries_) sim.on_completion([this](const IoCompletion& c) { timeseries_->add(c); });
}

void ReplayRun::simulate() {
  if (source_) {
    sim_.run(source_.get(), cfg_.replay.iodepth);
    source_->check();
    if (cfg_.powerfail_from_trace && !source_->power_cut())
      throw opts_.error("powerfail.at", "=trace, but " + cfg_.replay.path + " has no powerfail record (no power cut)");
  } else if (!jobs_.empty()) {
    std::vector<HostStream> streams;
    for (const auto& j : jobs_) streams.push_back({j.get(), j->job().iodepth, j->end()});
    sim_.run(streams);
  } else {
    sim_.run();
  }
}

void ReplayRun::run() {
  try {
    simulate();
  } catch (const LogWriteFailed& e) {
    throw opts_.error(e.option, e.what());
  }
  fio_->set_host(sim_.host());
  try {
    if (latency_log_) latency_log_->close();
  } catch (const std::runtime_error& e) {
    throw opts_.error("latency-log", e.what());
  }
  try {
    if (timeseries_) timeseries_->close(ssdtlm::to_ns(sim_.host().last_completion()));
  } catch (const std::runtime_error& e) {
    throw opts_.error("timeseries", e.what());
  }
}

void ReplayRun::annotate(nlohmann::json& report) const {
  const FlashGeometry& g = cfg_.nand.geometry;
  char drive[256];
  const std::string members = cfg_.raid.members > 1 ? "RAID-0 of " + std::to_string(cfg_.raid.members) + " x " : "";
  std::snprintf(drive, sizeof drive,
                "%s%u ch x %u dies x %u planes x %u blocks x %u pages x %u B, %.1f GiB raw, %.1f GiB user, FTL %s, "
                "%s %s",
                members.c_str(), g.channels, g.dies_per_channel, g.planes_per_die, g.blocks_per_plane, g.pages_per_block, g.page_size,
                double(g.bytes()) * cfg_.raid.members / (1u << 30),
                double(sim_.user_bytes()) / (1u << 30), cfg_.ftl_name.c_str(),
                cfg_.state_option ? "state" : "precondition",
                cfg_.state_option ? cfg_.state.name.c_str() : opts_.values().at("precondition").c_str());
  if (cfg_.hdd)
    std::snprintf(drive, sizeof drive, "hard disk, %.1f GB, %.0f rpm, %s", double(cfg_.disk.capacity) / 1e9,
                  cfg_.disk.rpm, cfg_.disk.write_cache ? "write cache" : "no write cache");
  report["drive"] = drive;
  report["workload"] = sim_.workload_description();
  if (source_) report["trace"] = source_->accounting();
}

nlohmann::json ReplayRun::fio_envelope(const std::string& version, bool json_plus) const {
  return fio_->envelope(version, json_plus);
}

}  // namespace ssd
