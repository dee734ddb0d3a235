#pragma once
// Seeing the drive work: what every resource is busy with, over simulated
// time, as a VCD waveform (--vcd, for GTKWave) and as a Chrome/Perfetto
// trace (--activity, JSON trace event format, for ui.perfetto.dev).
//
// Where the data comes from: every resource books its busy intervals in a
// reservation calendar (tlm/timeline.h), often in the simulated future. Each
// traced calendar gets an ActivityTrack as its observer; before booking, the
// owning module labels the track with what the work is (a NAND read, a bus
// transfer, firmware, ...), and the track records every interval the
// calendar reserves under that label. With tracing off no track exists: the
// calendars test one null pointer per reservation and the modules one per
// operation.
//
// Perfetto (--activity): each interval is written at once as a complete
// event ("ph":"X"), so memory stays constant; the JSON format needs no
// ordering. Host commands are slices on the host's NCQ-tag tracks, linked by
// flow events to the NAND operations the firmware ran for them.
//
// VCD (--vcd), with SystemC's own tracing: sc_trace samples sc_signals as
// simulated time advances, but intervals are booked ahead of time. So each
// interval becomes two change points (start: the activity code, end: 0)
// in a time-ordered queue, and a SystemC thread of this module walks that
// queue as time advances, writing each signal when its change point comes
// due. This is correct because a reservation is never made for the past
// (a calendar places work at or after the current time), so every change
// point is queued no later than its own time; one queued at the current
// time wakes the thread in a delta cycle of the same time step, and the VCD
// writer records values at the end of the time step. At equal times ends
// are applied before starts, so back-to-back intervals show no false idle.
// The thread only waits on its own events: it never wakes the model, so a
// run traced or not gives the same results (the kernel may just run on past
// the last IO to play the last change points).
//
// Both files have an optional time window: VCD signals are clipped to it
// (0 outside it), Perfetto keeps the slices that overlap it (whole).

#include <systemc>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "model/sim/config.h"
#include "tlm/ssd_protocol.h"
#include "tlm/timeline.h"

namespace ssd {

// What a resource is busy with: the VCD signal's value (plus kGcFlag for
// garbage-collection work) and the Perfetto slice's name.
enum class Activity : uint8_t {
  Idle = 0,
  Read = 1,      // NAND die: array read plus its page's transfer
  Program = 2,   // NAND die: transfer plus array program
  Erase = 3,     // NAND die: block erase
  Transfer = 4,  // NAND channel bus: data moving to or from a die
  Firmware = 5,  // controller core: firmware steps
  Dram = 6,      // DRAM port: an access moving data
  Command = 7,   // SATA link: a command's FIS exchange
  Data = 8,      // SATA link: a Data FIS
};
constexpr uint8_t kGcFlag = 16;
const char* to_string(Activity a);

class ActivityRecorder;

// One traced resource. Observes its Timeline; label() says what the next
// reservations are for.
class ActivityTrack : public ssdtlm::TimelineObserver {
 public:
  // `resumed`: the part of a suspended program or erase (or of an operation
  // behind it) pushed past its booked end by a read (nand.suspend).
  void label(Activity what, bool gc = false, uint64_t lpn = ssdtlm::PageData::kUnmapped, uint64_t ppn = kNoPage,
             uint64_t bytes = 0, bool resumed = false) {
    what_ = what, gc_ = gc, lpn_ = lpn, ppn_ = ppn, bytes_ = bytes, resumed_ = resumed;
  }
  void reserved(const sc_time& start, const sc_time& end) override;

  static constexpr uint64_t kNoPage = UINT64_MAX;

 private:
  friend class ActivityRecorder;
  ActivityRecorder* rec_ = nullptr;
  uint32_t index_ = 0, pid_ = 0, tid_ = 0;
  bool flows_ = false;  // NAND dies: link to the host command being served
  std::string process_, thread_;  // Perfetto process and thread names; the VCD's scope and signal
  Activity what_ = Activity::Idle;
  bool gc_ = false, resumed_ = false;
  uint64_t lpn_ = 0, ppn_ = 0, bytes_ = 0;
};

class ActivityRecorder : public sc_core::sc_module {
 public:
  // Opens cfg.vcd and/or cfg.activity (throws OptionError naming the option
  // if one cannot be written); call during elaboration.
  ActivityRecorder(sc_core::sc_module_name name, const SimConfig& cfg);
  ~ActivityRecorder() override;

  // The tracks, created here in a fixed layout (see docs/report.md).
  ActivityTrack* sata_link() { return &tracks_[0]; }
  ActivityTrack* dram_port() { return &tracks_[1]; }
  ActivityTrack* cpu_core(uint32_t core) { return &tracks_[2 + core]; }
  ActivityTrack* channel_bus(uint32_t channel) { return &tracks_[channel_base_ + channel * stride_]; }
  ActivityTrack* die(uint32_t channel, uint32_t die) { return &tracks_[channel_base_ + channel * stride_ + 1 + die]; }
  // With nand.suspend: the reads a die runs inside a suspended program or
  // erase (null without it).
  ActivityTrack* die_suspended_reads(uint32_t channel, uint32_t die) {
    return stride_ == 1 + dies_ ? nullptr : &tracks_[channel_base_ + channel * stride_ + 1 + dies_ + die];
  }

  // The SATA interface brackets each host command: NAND work booked in
  // between is linked to it (b_transport never waits, so nothing interleaves).
  void begin_command() { current_cmd_ = ++commands_; }
  void end_command(const ssdtlm::HostCommand& cmd, const sc_time& start, const sc_time& end);

  // Completes and closes the files (after the run). Throws OptionError if a write failed.
  void finish();

 private:
  friend class ActivityTrack;
  struct Change {
    uint64_t at;  // ps
    bool start;   // ends sort before starts at the same time
    uint32_t signal;
    uint8_t value;
    bool operator>(const Change& o) const { return at != o.at ? at > o.at : start > o.start; }
  };
  void add_track(uint32_t pid, uint32_t tid, const std::string& process, const std::string& thread, bool flows);
  void record(const ActivityTrack& t, const sc_time& start, const sc_time& end);
  void drive_signals();  // the VCD thread
  void slice_json(const ActivityTrack& t, uint64_t start, uint64_t end);
  bool in_window(uint64_t start, uint64_t end) const;

  uint32_t dies_ = 0, channel_base_ = 0, stride_ = 0;  // stride_: tracks per channel
  std::vector<ActivityTrack> tracks_;
  uint64_t commands_ = 0, current_cmd_ = 0, flows_ = 0;
  struct Flow {
    uint32_t pid, tid;
    uint64_t at;  // ps, inside the NAND slice
  };
  std::vector<Flow> pending_;  // the current command's NAND slices, linked when it ends

  // Perfetto
  std::string json_path_;
  std::FILE* json_ = nullptr;
  uint64_t json_start_ = 0, json_end_ = UINT64_MAX;  // ps
  std::vector<bool> tag_named_;                      // host tracks named so far

  // VCD
  std::string vcd_path_;
  sc_core::sc_trace_file* vcd_ = nullptr;
  uint64_t vcd_start_ = 0, vcd_end_ = UINT64_MAX;  // ps
  std::vector<std::unique_ptr<sc_core::sc_signal<unsigned char>>> signals_;
  std::priority_queue<Change, std::vector<Change>, std::greater<Change>> changes_;
  sc_core::sc_event wake_;
  uint64_t wake_at_ = UINT64_MAX;  // the change point the thread waits for
};

}  // namespace ssd
