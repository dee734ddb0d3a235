#pragma once
// One NAND channel: an 8-bit bus at `nand.channel_rate` shared by the dies on
// it. Each die is busy for its whole array operation (tR / tPROG / tBERS, per
// page type on MLC with fast LSB and slow MSB pages, plus
// the transfer that feeds or drains its page register); the bus is busy only
// while data moves. A die in tPROG therefore leaves the bus to its
// neighbours, and interleaving and channel contention come out of the two
// reservations rather than from a formula.
//
// With the die's cache register (`nand.cache_program`, `nand.cache_read`)
// the die's reservation covers only the array: a cached program's data
// moves in over the bus once the register is free (when the previous
// program's array step began) and its tPROG starts when both the data and
// the array are ready; a cached read's tR starts when the array is free and
// its data moves out once the register is free (when the previous read's
// data has left). The register serves one stream at a time: cached
// programs, cached reads, or the uncached operations (each of which holds
// its die from its first step to its last, the register within it). An
// operation of another stream than the one holding the register starts once
// the register is let go: a cached program's data moved into the array's
// page register (its tPROG began), a read's data left. So a read never takes
// the register while a program's data waits in it, nor a program's data in
// the register a read still has to drain (a controller ends one cache
// sequence before it starts the other kind). Erases use no register.
//
// A multi-plane operation (`nand.multiplane`, FlashCommand::planes > 1)
// moves every plane's data over the bus back to back and takes one array
// time: tR before, tPROG or tBERS after.
//
// Program/erase suspend (`nand.suspend`): a host read (FlashCommand::host_read:
// a host read command's page or map-page read) whose die is in the
// array step of a suspendable program or erase (a host write's, a destage,
// idle-time GC: the controller says so, and moves what waits for its end)
// suspends it: the read's tR starts t_suspend after it arrives (or after
// the array step began, if it came during the data transfer in), its data
// moves out, and the operation resumes, ending later by the time the die
// spent away from it. The die's later bookings move with it, each by what
// is left of that time after the idle gap before it, so the read goes ahead
// of everything booked behind the running operation. A read does not
// suspend an operation that would move a booking nobody can postpone (a
// read, whose end was answered; a GC read also feeds a program elsewhere;
// TRIM's flash work; a plain TLM payload's write-through program): it
// waits as before; so does a read whose operation was already suspended
// nand.max_suspends times (0: no limit). A moved operation keeps
// its place on the bus: a program behind the suspended one moves its data
// in at the time first booked (the bus calendar cannot move a booking), so
// other dies' transfers do not wait for it at its new time.

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <vector>

#include "model/sim/activity.h"
#include "model/sim/config.h"
#include "tlm/ssd_protocol.h"
#include "tlm/timeline.h"

namespace ssd {

class NandChannel : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<NandChannel> socket;

  NandChannel(sc_core::sc_module_name name, const NandConfig& cfg);

  // Page reads and programs, block erases (a multi-plane operation counts
  // each of its planes), and the multi-plane operations among them.
  struct Stats {
    uint64_t reads = 0, programs = 0, erases = 0;
    uint64_t gc_reads = 0, gc_programs = 0, gc_erases = 0;
    uint64_t multi_plane_ops = 0, multi_plane_pages = 0;
    uint64_t suspends = 0;  // reads that suspended a program or erase
  };
  const Stats& stats() const { return stats_; }
  double bus_utilisation(const sc_time& elapsed) const;
  double die_utilisation(uint32_t die, const sc_time& elapsed) const;
  const sc_time& bus_busy() const { return bus_.busy(); }
  const sc_time& die_busy(uint32_t die) const { return dies_.at(die).busy(); }
  // When the last bus or die work booked so far ends.
  sc_time busy_until() const;
  uint32_t dies() const { return static_cast<uint32_t>(dies_.size()); }
  // Record the bus's and each die's work on these tracks (--vcd, --activity).
  // `suspended`: per die, the track of the reads run inside a suspended
  // program or erase (nand.suspend; else empty).
  void trace(ActivityTrack* bus, std::vector<ActivityTrack*> dies, std::vector<ActivityTrack*> suspended = {});

  // Starts [from, to) known not to fit an operation of one shape (before,
  // xfer, after) on one die. The calendars only ever gain reservations
  // (nothing is cancelled or moved earlier; a suspension adds the time it
  // takes), so a start that did not fit never will, and the next search for
  // the same shape skips them. Without it a die whose reads queue behind a
  // saturated bus had every gap of its backlog tried again for every read:
  // quadratic (a bus-bound 0.3 GiB drive at 0.7 % spare: 32 s for 551 host IOs).
  struct NoFit {
    sc_time before, xfer, after;
    sc_time from, to;  // empty: from == to
    // A search from `asked` found `start`: every start in [asked, start) failed.
    void learn(const sc_time& asked, const sc_time& start);
  };
  // A die's NoFits: of the last few shapes whose search took more than
  // learn_after tries there (reads of different page types, programs,
  // erases), replaced in turn. (Most searches take one or two tries: not
  // worth the bookkeeping.)
  struct NoFitBook {
    static constexpr size_t kShapes = 4;
    uint32_t learn_after = 4;
    std::array<NoFit, kShapes> shapes{};
    uint8_t used = 0, next = 0;
    NoFit* find(const sc_time& before, const sc_time& xfer, const sc_time& after);
    NoFit& add(const sc_time& before, const sc_time& xfer, const sc_time& after);
  };

  // Where an uncached operation goes: the first start from `earliest` at
  // which `die` is free for its whole span (array `before`, then `xfer` in
  // the free pieces of `bus`, then array `after`); returns the start and
  // sets `end`. `at_die` and `on_bus`: the positions of the start and of
  // the transfer's first piece, for the reservations that follow. `book`
  // (the die's, or null): a search past its first try skips the starts it
  // lists for the shape, and adds what it found.
  static sc_time place(const ssdtlm::Timeline& die, const ssdtlm::Timeline& bus, sc_time earliest,
                       const sc_time& before, const sc_time& xfer, const sc_time& after, sc_time& end,
                       ssdtlm::Timeline::Position& at_die, ssdtlm::Timeline::Position& on_bus,
                       NoFitBook* book = nullptr);

 private:
  // kRegisterTurns: a cache mode is on (the register's turns, turns_).
  template <bool kRegisterTurns>
  void b_transport(tlm::tlm_generic_payload& trans, sc_time& delay);
  // Cache modes: waits for the register's turn (moves `delay`), and serves
  // an operation through the cache register (true; `delay` its end).
  [[gnu::noinline]] bool through_register(const ssdtlm::FlashCommand& cmd, const sc_time& now, sc_time& delay,
                                          const sc_time& before, const sc_time& xfer, const sc_time& after);
  // A program or read through the cache register; returns its end.
  sc_time cached(const ssdtlm::FlashCommand& cmd, const sc_time& earliest, const sc_time& array, const sc_time& xfer);
  // nand.suspend: serve the read `cmd` by suspending an operation on its
  // die, if the read then ends before `booked_end` (where the calendar would
  // put it); true and `end` (the read's) if so.
  bool suspend_for(ssdtlm::FlashCommand& cmd, const sc_time& earliest, const sc_time& t_read, const sc_time& xfer,
                   const sc_time& booked_end, sc_time& end);

  NandConfig cfg_;
  ssdtlm::RateTimes transfer_time_;  // bytes -> time on the bus
  ssdtlm::Timeline bus_;
  std::vector<ssdtlm::Timeline> dies_;
  std::vector<sc_time> register_free_;  // per die, cache modes only: when the cache register is free
  // Per die, cache modes only: the stream that holds the register (0 none,
  // 1 cached programs, 2 cached reads, 3 uncached operations), from when it
  // may use it (when the stream before let go), and when the register's
  // last user lets go.
  struct RegisterTurn {
    uint8_t stream = 0;
    sc_time since, release;
  };
  std::vector<RegisterTurn> turns_;
  std::vector<NoFitBook> no_fit_;  // per die
  // place() past its first try (out of line: most searches end there).
  [[gnu::noinline]] static sc_time place_after(const ssdtlm::Timeline& die, const ssdtlm::Timeline& bus,
                                               const sc_time& asked, sc_time earliest, const sc_time& before,
                                               const sc_time& xfer, const sc_time& after, sc_time& end,
                                               ssdtlm::Timeline::Position& at_die, ssdtlm::Timeline::Position& on_bus,
                                               NoFitBook* book);
  // nand.suspend: per die, its operations not yet ended, by start. read_end:
  // the end of the last read that suspended it (the die is the read's until then).
  struct Booking {
    sc_time start, array_start, end, read_end;
    bool suspendable;
    uint32_t suspends;  // reads that suspended it (nand.max_suspends)
    // What it is, for the activity trace's slice of the time a suspend
    // pushes it past its booked end.
    Activity what;
    bool gc;
    uint64_t lpn, ppn;
  };
  std::vector<std::vector<Booking>> booked_;
  std::vector<uint32_t> movable_;  // per die, how many of its bookings are suspendable
  // Per die, the idle time between its consecutive bookings, summed: kept as
  // the bookings change, so a read that no gap can make room for is told so
  // without a walk over a backlog of thousands (suspend_for).
  std::vector<sc_time> idle_;
  static sc_time gap_after(const std::vector<Booking>& booked, size_t j) { return booked[j + 1].start - booked[j].end; }
  // The gaps between bookings from .. to - 1, summed (what idle_ must be:
  // a Debug build checks it at every read).
  static sc_time idle_between(const std::vector<Booking>& booked, size_t from, size_t to) {
    sc_time sum = sc_core::SC_ZERO_TIME;
    for (size_t j = from; j + 1 < to; ++j) sum += gap_after(booked, j);
    return sum;
  }
  std::vector<sc_time> absorb_;  // suspend_for's scratch
  Stats stats_;
  ActivityTrack* bus_track_ = nullptr;  // null unless traced
  std::vector<ActivityTrack*> die_tracks_;
  std::vector<ActivityTrack*> suspend_tracks_;
};

}  // namespace ssd
