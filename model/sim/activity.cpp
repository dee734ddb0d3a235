#include "model/sim/activity.h"

#include <cinttypes>

#include "model/sim/options.h"
#include "model/sim/text.h"

namespace ssd {

const char* to_string(Activity a) {
  switch (a) {
    case Activity::Idle: return "idle";
    case Activity::Read: return "read";
    case Activity::Program: return "program";
    case Activity::Erase: return "erase";
    case Activity::Transfer: return "transfer";
    case Activity::Firmware: return "firmware";
    case Activity::Dram: return "dram";
    case Activity::Command: return "command";
    case Activity::Data: return "data";
  }
  return "?";
}

namespace {
constexpr uint64_t kNone = UINT64_MAX;
constexpr uint32_t kHostPid = 1;

uint64_t ps(const sc_time& t) { return t.value(); }  // the kernel's resolution is 1 ps (tests/model assume it too)

// Microseconds with six decimals: exact to the picosecond.
std::string us(uint64_t ps) {
  char b[40];
  std::snprintf(b, sizeof b, "%" PRIu64 ".%06" PRIu64, ps / 1000000, ps % 1000000);
  return b;
}

// Names here are ours (no quotes or backslashes): no JSON escaping needed.
void meta(std::FILE* f, const char* what, uint32_t pid, uint32_t tid, const std::string& name, uint32_t sort) {
  std::fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"%s_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"%s\"}}", what, pid, tid,
               name.c_str());
  std::fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"%s_sort_index\",\"pid\":%u,\"tid\":%u,\"args\":{\"sort_index\":%u}}",
               what, pid, tid, sort);
}
}  // namespace

void ActivityTrack::reserved(const sc_time& start, const sc_time& end) { rec_->record(*this, start, end); }

ActivityRecorder::ActivityRecorder(sc_core::sc_module_name name, const SimConfig& cfg)
    : sc_module(name), dies_(cfg.nand.geometry.dies_per_channel) {
  // Layout: pid 1 host (one track per NCQ tag, named on first use), 2 SATA
  // link, 3 DRAM port, 4 controller cores, 10 + c channel c (bus, dies).
  add_track(2, 1, "sata", "link", false);
  add_track(3, 1, "dram", "port", false);
  for (uint32_t c = 0; c < cfg.cpu.cores; ++c) add_track(4, 1 + c, "cpu", "core" + std::to_string(c), false);
  channel_base_ = uint32_t(tracks_.size());
  stride_ = 1 + dies_ * (cfg.nand.suspend ? 2 : 1);
  for (uint32_t c = 0; c < cfg.nand.geometry.channels; ++c) {
    const std::string ch = "channel" + std::to_string(c);
    add_track(10 + c, 1, ch, "bus", false);
    for (uint32_t d = 0; d < dies_; ++d) add_track(10 + c, 2 + d, ch, "die" + std::to_string(d), true);
    if (cfg.nand.suspend)
      for (uint32_t d = 0; d < dies_; ++d)
        add_track(10 + c, 2 + dies_ + d, ch, "die" + std::to_string(d) + "_suspended_reads", true);
  }
  for (auto& t : tracks_) t.rec_ = this;

  if (!cfg.activity.empty()) {
    json_path_ = cfg.activity;
    json_start_ = ps(cfg.activity_start);
    if (cfg.activity_end != sc_core::SC_ZERO_TIME) json_end_ = ps(cfg.activity_end);
    if (!(json_ = std::fopen(json_path_.c_str(), "w")))
      throw OptionError("option 'activity': " + json_path_ + ": cannot open for writing");
    std::fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", json_);
    std::fprintf(json_, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":\"host\"}}",
                 kHostPid);
    uint32_t last_pid = 0;
    for (const auto& t : tracks_) {
      if (t.pid_ != last_pid) meta(json_, "process", t.pid_, 0, t.process_, t.pid_);
      last_pid = t.pid_;
      meta(json_, "thread", t.pid_, t.tid_, t.thread_, t.tid_);
    }
  }
  if (!cfg.vcd.empty()) {
    vcd_path_ = cfg.vcd;
    vcd_start_ = ps(cfg.vcd_start);
    if (cfg.vcd_end != sc_core::SC_ZERO_TIME) vcd_end_ = ps(cfg.vcd_end);
    // SystemC appends ".vcd" to the name it is given (the options insist on the suffix).
    const std::string stem = vcd_path_.substr(0, vcd_path_.size() - 4);
    if (std::FILE* probe = std::fopen(vcd_path_.c_str(), "w")) std::fclose(probe);  // SystemC opens it later
    else throw OptionError("option 'vcd': " + vcd_path_ + ": cannot open for writing");
    vcd_ = sc_core::sc_create_vcd_trace_file(stem.c_str());
    // Picoseconds, the kernel's resolution; SystemC would announce that on stdout (where reports go).
    sc_core::sc_report_handler::set_actions("tracing timescale unit set", sc_core::SC_DO_NOTHING);
    vcd_->set_time_unit(1, sc_core::SC_PS);
    for (size_t i = 0; i < tracks_.size(); ++i) {
      const ActivityTrack& t = tracks_[i];
      signals_.push_back(std::make_unique<sc_core::sc_signal<unsigned char>>(("s" + std::to_string(i)).c_str()));
      sc_core::sc_trace(vcd_, signals_.back()->read(), t.process_ + "." + t.thread_, 8);
    }
    sc_core::sc_spawn([this] { drive_signals(); }, "vcd_driver");
  }
}

ActivityRecorder::~ActivityRecorder() {
  if (json_) std::fclose(json_);
  if (vcd_) sc_core::sc_close_vcd_trace_file(vcd_);
}

void ActivityRecorder::add_track(uint32_t pid, uint32_t tid, const std::string& process, const std::string& thread,
                                 bool flows) {
  ActivityTrack t;
  t.index_ = uint32_t(tracks_.size());
  t.pid_ = pid, t.tid_ = tid, t.flows_ = flows;
  t.process_ = process, t.thread_ = thread;
  tracks_.push_back(t);
}

bool ActivityRecorder::in_window(uint64_t start, uint64_t end) const { return end > json_start_ && start < json_end_; }

void ActivityRecorder::record(const ActivityTrack& t, const sc_time& start_time, const sc_time& end_time) {
  const uint64_t start = ps(start_time), end = ps(end_time);
  if (json_ && in_window(start, end)) slice_json(t, start, end);
  if (vcd_) {
    const uint64_t s = std::max(start, vcd_start_), e = std::min(end, vcd_end_);
    if (s >= e) return;
    const uint8_t v = uint8_t(uint8_t(t.what_) | (t.gc_ ? kGcFlag : 0));
    changes_.push({s, true, t.index_, v});
    changes_.push({e, false, t.index_, 0});
    if (s < wake_at_) {  // due before what the thread waits for: wake it in this time step
      wake_at_ = s;
      wake_.notify(sc_core::SC_ZERO_TIME);
    }
  }
}

void ActivityRecorder::slice_json(const ActivityTrack& t, uint64_t start, uint64_t end) {
  std::fprintf(json_, ",\n{\"ph\":\"X\",\"name\":\"%s%s\",\"cat\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":%s,\"dur\":%s,\"args\":{",
               t.gc_ ? "gc " : "", to_string(t.what_), t.gc_ ? "gc" : current_cmd_ ? "host" : "internal", t.pid_, t.tid_, us(start).c_str(),
               us(end - start).c_str());
  std::fprintf(json_, "\"gc\":%s", t.gc_ ? "true" : "false");
  if (t.lpn_ != ssdtlm::PageData::kUnmapped) std::fprintf(json_, ",\"lpn\":%" PRIu64, t.lpn_);
  if (t.ppn_ != ActivityTrack::kNoPage) std::fprintf(json_, ",\"ppn\":%" PRIu64, t.ppn_);
  if (t.bytes_) std::fprintf(json_, ",\"bytes\":%" PRIu64, t.bytes_);
  if (t.resumed_) std::fputs(",\"resumed\":true", json_);
  if (current_cmd_) std::fprintf(json_, ",\"cmd\":%" PRIu64, current_cmd_);
  std::fputs("}}", json_);
  if (t.flows_ && current_cmd_) pending_.push_back({t.pid_, t.tid_, start + (end - start) / 2});
}

void ActivityRecorder::end_command(const ssdtlm::HostCommand& cmd, const sc_time& start_time, const sc_time& end_time) {
  const uint64_t start = ps(start_time), end = ps(end_time);
  if (json_ && end > start && in_window(start, end)) {
    const uint32_t tid = cmd.ncq_tag + 1;
    if (tag_named_.size() <= cmd.ncq_tag) tag_named_.resize(cmd.ncq_tag + 1, false);
    if (!tag_named_[cmd.ncq_tag]) {
      meta(json_, "thread", kHostPid, tid, "NCQ tag " + std::to_string(cmd.ncq_tag), tid);
      tag_named_[cmd.ncq_tag] = true;
    }
    static const char* const names[] = {"READ", "WRITE", "TRIM", "FLUSH"};
    std::fprintf(json_,
                 ",\n{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"host\",\"pid\":%u,\"tid\":%u,\"ts\":%s,\"dur\":%s,"
                 "\"args\":{\"cmd\":%" PRIu64 ",\"offset\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"tag\":%u}}",
                 names[size_t(cmd.op)], kHostPid, tid, us(start).c_str(), us(end - start).c_str(), current_cmd_,
                 cmd.offset, cmd.bytes, cmd.ncq_tag);
    // One flow per NAND operation (fan-out), each bound to the slices that enclose its ends.
    const std::string from = us(start + (end - start) / 2);
    for (const Flow& f : pending_) {
      ++flows_;
      std::fprintf(json_,
                   ",\n{\"ph\":\"s\",\"name\":\"nand\",\"cat\":\"flow\",\"id\":%" PRIu64 ",\"pid\":%u,\"tid\":%u,\"ts\":%s}"
                   ",\n{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"nand\",\"cat\":\"flow\",\"id\":%" PRIu64
                   ",\"pid\":%u,\"tid\":%u,\"ts\":%s}",
                   flows_, kHostPid, tid, from.c_str(), flows_, f.pid, f.tid, us(f.at).c_str());
    }
  }
  pending_.clear();
  current_cmd_ = 0;
}

void ActivityRecorder::drive_signals() {
  for (;;) {
    const uint64_t now = ps(sc_core::sc_time_stamp());
    while (!changes_.empty() && changes_.top().at <= now) {
      const Change& c = changes_.top();
      signals_[c.signal]->write(c.value);  // last write in a delta wins: an end then a start leaves the start
      changes_.pop();
    }
    if (changes_.empty()) {
      // The kernel writes a time step's values to the VCD when time next
      // advances: one more picosecond lets the last step reach the file.
      wake_at_ = now + 1;
      sc_core::wait(sc_time::from_value(1), wake_);
      if (!changes_.empty() || ps(sc_core::sc_time_stamp()) == now) continue;
      wake_at_ = UINT64_MAX;
      sc_core::wait(wake_);
    } else {
      wake_at_ = changes_.top().at;
      sc_core::wait(sc_time::from_value(wake_at_ - now), wake_);
    }
  }
}

void ActivityRecorder::finish() {
  if (json_) {
    std::fputs("\n]}\n", json_);
    const bool written = text::close_written(json_);
    json_ = nullptr;
    if (!written) throw OptionError(json_path_ + ": write failed (option 'activity')");
  }
  if (vcd_) {
    sc_core::sc_close_vcd_trace_file(vcd_);
    vcd_ = nullptr;
  }
}

}  // namespace ssd
