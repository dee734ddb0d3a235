#pragma once
// The protocol between the SSD's modules: TLM-2.0 generic payloads carrying
// one of two extensions, and the timing helpers every module shares.
//
// Style: loosely timed. A transaction is a blocking b_transport call made at
// the caller's current simulated time; `delay` enters as "the request is
// ready this long after now" and returns as "the response is ready this long
// after now". Targets reserve their resources (tlm/timeline.h) inside the
// call, so a whole host command costs the kernel one wait() in the host.

#include <systemc>
#include <tlm>

#include <array>
#include <cstdint>
#include <vector>

namespace ssdtlm {

using sc_core::sc_time;

// ---- host side: one ATA command (READ/WRITE FPDMA QUEUED, DSM TRIM, FLUSH CACHE)
enum class HostOp : uint8_t { Read, Write, Trim, Flush };
const char* to_string(HostOp op);

// The most data one READ/WRITE FPDMA QUEUED moves: its sector count is 16
// bits, 0 meaning 65536 (ATA8-ACS), of 512-byte sectors. A host splits a
// larger request into several commands (Linux: max_hw_sectors_kb), so a
// larger read or write is bad input here. (A TRIM is not bound by it: one
// DATA SET MANAGEMENT command carries many ranges.)
constexpr uint64_t kMaxCommandBytes = uint64_t(65536) * 512;
// What the refusal of a larger read or write says, wherever it comes from.
constexpr const char* kMaxCommandRefusal =
    "is more than one SATA read or write carries (65536 sectors, 32 MiB): a host splits larger requests into "
    "several commands";

// What one logical page of a read held, for content checks: whose data
// (`lpn`) and which write (`tag`); an unmapped page has no lpn.
struct PageData {
  static constexpr uint64_t kUnmapped = UINT64_MAX;
  uint64_t lpn = kUnmapped;
  uint64_t tag = 0;
  bool mapped() const { return lpn != kUnmapped; }
};

// A write's data on the link, paced by the device (SATA flow control: the
// device sends a DMA Activate FIS before each host-to-device Data FIS, when
// it has room for it). The interface hands a write to the drive before its
// data; the drive asks for the data as its buffer frees, so a write larger
// than the free buffer crosses the link while the buffer drains instead of
// all at once ahead of it.
class WriteDataLink {
 public:
  // Move the command's data up to byte `end` of the command (in whole Data
  // FISes of at most kDataFisBytes, counted from the command's first byte:
  // the FIS that holds byte end - 1 comes whole), none of it starting before
  // `not_before`; returns when the last of it has crossed the link. Bytes
  // asked for before are not moved again (their FIS's arrival is returned).
  virtual sc_time deliver(uint64_t end, const sc_time& not_before) = 0;

 protected:
  ~WriteDataLink() = default;
};

struct HostCommand : tlm::tlm_extension<HostCommand> {
  HostOp op = HostOp::Read;
  uint64_t offset = 0;  // bytes
  uint64_t bytes = 0;
  uint32_t ncq_tag = 0;
  // Reads: when each piece of the command's data is in the DRAM buffer, in
  // LBA order (piece i covers bytes [ready[i-1].end, ready[i].end) of the
  // command), so the link can stream Data FISes as the pieces arrive.
  struct DataReady {
    uint64_t end;
    sc_time at;
  };
  std::vector<DataReady> ready;
  // Writes: when each Data FIS's payload has crossed the link, in LBA order
  // (filled by the SATA interface), so the controller can land each in its
  // buffer as it arrives. Empty: all of it is there when the command reaches
  // the controller (a RAID chip's sub-command, a plain TLM payload).
  std::vector<DataReady> arrived;
  // Writes, when the interface paces them (`sata.flow_control`):
  // none of the data has crossed yet; the drive asks for it through this
  // during its b_transport (`arrived` grows as it does). Null otherwise.
  WriteDataLink* data_link = nullptr;
  // Content checks only (`check.content`): the tag of a write's data, and
  // for a read what each page held (filled by the drive when it tracks content).
  uint64_t data_tag = 0;
  std::vector<PageData> content;
  // The drive accepted the command and did nothing with it: a TRIM on a
  // drive without TRIM support (controller.trim=false) leaves the data
  // mapped, so the host's record of what it wrote (check.content) keeps it.
  bool ignored = false;
  // nand.suspend: the completion answered moved later by this much (a read
  // suspended a program the command waits for, after the drive replied);
  // the host waits it out once the answered time has come.
  sc_time postponed;
  // nand.suspend behind a RAID-0 front-end: a member's sub-command names the
  // host's command it is part of, and `completes` is when each completes
  // (as answered, then as moved), so a member's postponement moves the
  // host's command only past the latest member.
  HostCommand* parent = nullptr;
  sc_time completes;
  // Whoever waits for the command hears of a later completion: the
  // built-in host does; a plain TLM payload's initiator has its answer only
  // (the SATA interface's command for it lives for the call), nor does a
  // RAID member's command the front-end does not keep. Not postponable: its
  // programs are not suspended.
  bool postponable = true;

  tlm_extension_base* clone() const override { return new HostCommand(*this); }
  void copy_from(const tlm_extension_base& e) override { *this = static_cast<const HostCommand&>(e); }
};

// ---- flash side: one NAND array operation on one die
enum class FlashOpKind : uint8_t { Read, Program, Erase };

struct FlashCommand : tlm::tlm_extension<FlashCommand> {
  FlashOpKind kind = FlashOpKind::Read;
  uint32_t die = 0;    // die index within the channel
  uint32_t page = 0;   // page within its block (MLC page type)
  uint32_t bytes = 0;  // bytes moved over the channel (0 for erase, or a copyback), all planes together
  uint32_t planes = 1; // a multi-plane operation: this many planes, one array time
  bool gc = false;     // background (GC) or host work (activity labels: the first plane's)
  uint32_t gc_planes = 0;  // for statistics: of `planes`, how many pages are GC work
  uint64_t ppn = 0;    // for activity traces: the flash page (erase: the block's first)
  uint64_t lpn = PageData::kUnmapped;  // for activity traces: the host page it serves, if any
  // nand.suspend. Request: a program or erase whose waiters the controller
  // can move (a host write, a write-back destage, idle-time GC), so a later
  // read may suspend it.
  // Response to a read that suspended one: the operations on the die whose
  // ends moved, each as {from, to}, latest first (empty otherwise).
  bool suspendable = false;
  std::vector<std::pair<sc_core::sc_time, sc_core::sc_time>> resumed;
  // Request: a host read's page or map-page read, which may suspend (a
  // write's or GC's reads do not).
  bool host_read = false;

  tlm_extension_base* clone() const override { return new FlashCommand(*this); }
  void copy_from(const tlm_extension_base& e) override { *this = static_cast<const FlashCommand&>(e); }
};

// ---- memory side: a DRAM buffer access
struct DramAccess : tlm::tlm_extension<DramAccess> {
  uint32_t bytes = 0;
  tlm_extension_base* clone() const override { return new DramAccess(*this); }
  void copy_from(const tlm_extension_base& e) override { *this = static_cast<const DramAccess&>(e); }
};

// SATA Data FIS payload limit: read data streams to the host in these units.
constexpr uint64_t kDataFisBytes = 8192;

// ---- shared timing helpers
// The current simulated time, as sc_time_stamp() gives it, read inline: the
// library's function is a call through the PLT, made a dozen times per IO.
inline const sc_time& sim_time() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }

// sc_time(s, SC_SEC), bit for bit, without the kernel's per-call work: its
// constructor looks up the simulation context and the time resolution on
// every call, about a tenth of a random-read run's wall time when every
// transfer and every firmware step converts a duration. The rounding is the
// kernel's own (ticks = s x ticks-per-second + 0.5, truncated); the product
// is kept apart from the addition so no compiler fuses them (FMA) and
// rounds differently from the library.
inline sc_time seconds(double s) {
  static const double ticks_per_second = sc_time(1, sc_core::SC_SEC).to_double();
  if (s == 0) return sc_core::SC_ZERO_TIME;
  volatile double ticks = s * ticks_per_second;
  return sc_time::from_value(static_cast<uint64_t>(static_cast<int64_t>(ticks + 0.5)));
}
// Time to move `bytes` at `bytes_per_second`, rounded to the kernel resolution.
inline sc_time transfer_time(uint64_t bytes, double bytes_per_second) {
  return seconds(static_cast<double>(bytes) / bytes_per_second);
}
// Whole nanoseconds in `t` (reports and latency statistics are in ns).
inline uint64_t to_ns(const sc_time& t) {
  static const uint64_t ticks_per_ns = sc_time(1, sc_core::SC_NS).value();
  // At the default resolution (1 ps) the divisor is a constant the compiler
  // turns into a multiplication; a run divides several times per IO.
  return ticks_per_ns == 1000 ? t.value() / 1000 : t.value() / ticks_per_ns;
}
// Time for `cycles` of a core clocked at `hz`.
inline sc_time cycle_time(uint64_t cycles, double hz) { return seconds(static_cast<double>(cycles) / hz); }

// Durations of `n` units (bytes, cycles) at a fixed rate, seconds(n / rate)
// as transfer_time() and cycle_time() give them, bit for bit, remembered for
// the last few distinct n. The hot paths convert the same handful of sizes
// and cycle counts on every IO, and the division and rounding cost more than
// a look-up (a direct-mapped table: a clash only recomputes).
class RateTimes {
 public:
  explicit RateTimes(double units_per_second) : rate_(units_per_second) {}
  sc_time operator()(uint64_t n) {
    // (Mixed so that powers of two, most sizes, land apart.)
    uint64_t h = n * 0x9E3779B97F4A7C15ull;
    h ^= h >> 32;
    Entry& e = memo_[size_t(h % memo_.size())];
    if (e.n != n) e = Entry{n, seconds(static_cast<double>(n) / rate_)};
    return e.time;
  }

 private:
  struct Entry {
    uint64_t n = 0;  // (a valid entry: 0 units take no time)
    sc_time time;
  };
  double rate_;
  std::array<Entry, 32> memo_{};
};

}  // namespace ssdtlm
