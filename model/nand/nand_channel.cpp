#include "model/nand/nand_channel.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "tlm/ssd_protocol.h"

namespace ssd {

using ssdtlm::FlashCommand;
using ssdtlm::FlashOpKind;

NandChannel::NandChannel(sc_core::sc_module_name name, const NandConfig& cfg)
    : sc_module(name), socket("socket"), cfg_(cfg), transfer_time_(cfg.channel_rate), dies_(cfg.geometry.dies_per_channel),
      register_free_(cfg.geometry.dies_per_channel, sc_core::SC_ZERO_TIME),
      turns_(cfg.cache_program || cfg.cache_read ? cfg.geometry.dies_per_channel : 0),
      no_fit_(cfg.geometry.dies_per_channel),
      booked_(cfg.suspend ? cfg.geometry.dies_per_channel : 0),
      movable_(booked_.size(), 0),
      idle_(booked_.size(), sc_core::SC_ZERO_TIME) {
  // (Two builds of one body: with a cache mode the register's turns, without
  // one not even their test on the path of every operation.)
  if (turns_.empty()) socket.register_b_transport(this, &NandChannel::b_transport<false>);
  else socket.register_b_transport(this, &NandChannel::b_transport<true>);
}

template <bool kRegisterTurns>
void NandChannel::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  FlashCommand* cmd = trans.get_extension<FlashCommand>();
  const sc_time now = ssdtlm::sim_time();
  ssdtlm::Timeline& die = dies_.at(cmd->die);
  die.retire(now);
  bus_.retire(now);

  // An operation is: die busy `before` (array), bus + die busy `xfer`, die busy `after` (array).
  sc_time before, after;
  const sc_time xfer = cmd->bytes ? transfer_time_(cmd->bytes) : sc_core::SC_ZERO_TIME;
  const uint32_t n = cmd->planes;
  // A multi-plane operation may pair GC pages with host pages.
  const auto count = [&](uint64_t& gc, uint64_t& host) { gc += cmd->gc_planes, host += n - cmd->gc_planes; };
  switch (cmd->kind) {
    case FlashOpKind::Read: before = cfg_.read_time(cmd->page); count(stats_.gc_reads, stats_.reads); break;
    case FlashOpKind::Program:
      after = cfg_.program_time(cmd->page);
      count(stats_.gc_programs, stats_.programs);
      break;
    case FlashOpKind::Erase: after = cfg_.t_erase; count(stats_.gc_erases, stats_.erases); break;
  }
  if (n > 1) ++stats_.multi_plane_ops, stats_.multi_plane_pages += n;
  // Cache modes only: the register's turn, and the operations through the
  // cache register.
  if constexpr (kRegisterTurns)
    if (through_register(*cmd, now, delay, before, xfer, after)) {
      trans.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
  // The die is held from the start of its array step until the end of the
  // step after the transfer (data waits in the page register for the bus).
  // The transfer itself may be split over the bus's free gaps: the controller
  // can pause RE#/WE# toggling, serve another die, and resume (ONFI column
  // addressing), so the bus never idles while some die has data to move.
  // (The positions: where the searches of the last try stopped, so the
  // reservations below need not search again.)
  ssdtlm::Timeline::Position at_die, on_bus;
  sc_time end;
  const sc_time start = place(die, bus_, now + delay, before, xfer, after, end, at_die, on_bus, &no_fit_[cmd->die]);
  if (cfg_.suspend) {
    cmd->resumed.clear();
    std::vector<Booking>& booked = booked_[cmd->die];
    sc_time& idle = idle_[cmd->die];
    uint32_t& movable = movable_[cmd->die];
    const auto live = std::find_if(booked.begin(), booked.end(), [&](const Booking& b) { return b.end > now; });
    for (size_t j = 0; j < size_t(live - booked.begin()); ++j) {  // what the ended bookings held
      movable -= booked[j].suspendable;
      if (j + 1 < booked.size()) idle -= gap_after(booked, j);
    }
    booked.erase(booked.begin(), live);
    sc_time read_end;
    if (cmd->kind == FlashOpKind::Read && cmd->host_read && suspend_for(*cmd, now + delay, before, xfer, end, read_end)) {
      delay = read_end - now;
      trans.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    // Reads and what the controller did not mark suspendable are bookings
    // too: nobody can move them.
    const Activity what = cmd->kind == FlashOpKind::Read      ? Activity::Read
                          : cmd->kind == FlashOpKind::Program ? Activity::Program
                                                              : Activity::Erase;
    const Booking b{start, end - after, end, sc_core::SC_ZERO_TIME,
                    cmd->suspendable && cmd->kind != FlashOpKind::Read, 0, what, cmd->gc, cmd->lpn, cmd->ppn};
    const size_t at = size_t(std::upper_bound(booked.begin(), booked.end(), b, [](const Booking& x, const Booking& y) {
                               return x.start < y.start;
                             }) - booked.begin());
    if (at > 0 && at < booked.size()) idle -= gap_after(booked, at - 1);
    if (at > 0) idle += b.start - booked[at - 1].end;
    if (at < booked.size()) idle += booked[at].start - b.end;
    booked.insert(booked.begin() + std::ptrdiff_t(at), b);
    movable += b.suspendable;
  }
  if (bus_track_) {
    const Activity what = cmd->kind == FlashOpKind::Read      ? Activity::Read
                          : cmd->kind == FlashOpKind::Program ? Activity::Program
                                                              : Activity::Erase;
    die_tracks_[cmd->die]->label(what, cmd->gc, cmd->lpn, cmd->ppn, cmd->bytes);
    bus_track_->label(Activity::Transfer, cmd->gc, cmd->lpn, cmd->ppn, cmd->bytes);
  }
  // (A read that suspended nothing left both calendars as they were.)
  die.reserve(start, end - start, at_die);
  if (xfer != sc_core::SC_ZERO_TIME) bus_.fill(start + before, xfer, on_bus);
  if constexpr (kRegisterTurns)  // it held the register to its end
    if (cmd->kind != FlashOpKind::Erase) turns_[cmd->die].release = std::max(turns_[cmd->die].release, end);
  delay = end - now;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

namespace {
// One try of NandChannel::place(): the die's first free gap from `earliest`
// long enough for the whole operation, the span the operation would take
// there (its transfer in the bus's free pieces), and the end of the last
// booking of the die inside that span (`start` if none: it fits).
inline sc_time try_at(const ssdtlm::Timeline& die, const ssdtlm::Timeline& bus, const sc_time& earliest,
                      const sc_time& before, const sc_time& xfer, const sc_time& after, bool resumed,
                      sc_time& start, sc_time& end, ssdtlm::Timeline::Position& at_die,
                      ssdtlm::Timeline::Position& on_bus) {
  start = resumed ? die.find_resuming(earliest, before + xfer + after, at_die)
                  : die.find(earliest, before + xfer + after, at_die);
  end = (xfer == sc_core::SC_ZERO_TIME ? start + before
         : resumed                     ? bus.fill_end_resuming(start + before, xfer, on_bus)
                                       : bus.fill_end(start + before, xfer, on_bus)) +
        after;
  return die.last_conflict_end(start, end, at_die);
}
}  // namespace

sc_time NandChannel::place(const ssdtlm::Timeline& die, const ssdtlm::Timeline& bus, sc_time earliest,
                           const sc_time& before, const sc_time& xfer, const sc_time& after, sc_time& end,
                           ssdtlm::Timeline::Position& at_die, ssdtlm::Timeline::Position& on_bus, NoFitBook* book) {
  sc_time start;
  const sc_time conflict = try_at(die, bus, earliest, before, xfer, after, false, start, end, at_die, on_bus);
  if (conflict == start) return start;
  return place_after(die, bus, earliest, conflict, before, xfer, after, end, at_die, on_bus, book);
}

sc_time NandChannel::place_after(const ssdtlm::Timeline& die, const ssdtlm::Timeline& bus, const sc_time& asked,
                                 sc_time earliest, const sc_time& before, const sc_time& xfer, const sc_time& after,
                                 sc_time& end, ssdtlm::Timeline::Position& at_die,
                                 ssdtlm::Timeline::Position& on_bus, NoFitBook* book) {
  // The die is booked inside the span: start after the last such booking.
  // No start before its end can do: a later start never ends earlier (the
  // transfer is placed no earlier on the bus), so its span would still
  // overlap that booking. (Restarting after the first conflict tried every
  // gap of a die booked far ahead, each with a walk of the bus: hours for a
  // bus-bound drive whose GC books seconds ahead.) `earliest`: that end.
  NoFit* known = book ? book->find(before, xfer, after) : nullptr;
  sc_time start;
  uint32_t tries = 2;  // (this one and place()'s)
  for (bool resumed = true;; resumed = true, ++tries) {
    if (known && earliest >= known->from && earliest < known->to) {
      earliest = known->to;
      resumed = false;  // (the positions are of the try before the skip)
    }
    const sc_time conflict = try_at(die, bus, earliest, before, xfer, after, resumed, start, end, at_die, on_bus);
    if (conflict == start) break;
    earliest = conflict;
  }
  if (book && (known || tries > book->learn_after))
    (known ? *known : book->add(before, xfer, after)).learn(asked, start);
  return start;
}

void NandChannel::NoFit::learn(const sc_time& asked, const sc_time& start) {
  // One range with the known ones if they meet, else the new one.
  if (start == asked) return;
  if (asked <= to && from <= start)
    from = std::min(from, asked), to = std::max(to, start);
  else
    from = asked, to = start;
}

NandChannel::NoFit* NandChannel::NoFitBook::find(const sc_time& before, const sc_time& xfer, const sc_time& after) {
  for (size_t i = 0; i < used; ++i)
    if (shapes[i].before == before && shapes[i].xfer == xfer && shapes[i].after == after) return &shapes[i];
  return nullptr;
}

NandChannel::NoFit& NandChannel::NoFitBook::add(const sc_time& before, const sc_time& xfer, const sc_time& after) {
  NoFit& f = shapes[next];
  next = uint8_t((next + 1) % kShapes);
  if (used < kShapes) ++used;
  f = NoFit{before, xfer, after, sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME};
  return f;
}

bool NandChannel::through_register(const FlashCommand& cmd, const sc_time& now, sc_time& delay, const sc_time& before,
                                   const sc_time& xfer, const sc_time& after) {
  if (cmd.kind == FlashOpKind::Erase) return false;  // (an erase uses no register)
  const bool through_cache =
      (cmd.kind == FlashOpKind::Program && cfg_.cache_program) || (cmd.kind == FlashOpKind::Read && cfg_.cache_read);
  RegisterTurn& turn = turns_[cmd.die];
  const uint8_t stream = !through_cache ? 3 : cmd.kind == FlashOpKind::Program ? 1 : 2;
  if (turn.stream != stream) turn.stream = stream, turn.since = turn.release;
  if (turn.since > now + delay) delay = turn.since - now;
  if (!through_cache) return false;
  const sc_time end = cached(cmd, now + delay, cmd.kind == FlashOpKind::Read ? before : after, xfer);
  // A cached program lets go of the register when its tPROG begins.
  const sc_time& let_go = cmd.kind == FlashOpKind::Program ? register_free_[cmd.die] : end;
  turn.release = std::max(turn.release, let_go);
  delay = end - now;
  return true;
}

sc_time NandChannel::cached(const ssdtlm::FlashCommand& cmd, const sc_time& earliest, const sc_time& array,
                            const sc_time& xfer) {
  ssdtlm::Timeline& die = dies_.at(cmd.die);
  sc_time& reg = register_free_.at(cmd.die);
  if (bus_track_) {
    die_tracks_[cmd.die]->label(cmd.kind == FlashOpKind::Read ? Activity::Read : Activity::Program, cmd.gc, cmd.lpn,
                                cmd.ppn, cmd.bytes);
    bus_track_->label(Activity::Transfer, cmd.gc, cmd.lpn, cmd.ppn, cmd.bytes);
  }
  if (cmd.kind == FlashOpKind::Program) {
    // Data in once the register is free, then tPROG once the array is.
    const sc_time in = std::max(earliest, reg);
    ssdtlm::Timeline::Position pos;
    const sc_time ready = xfer == sc_core::SC_ZERO_TIME ? in : bus_.fill_end(in, xfer, pos);
    if (xfer != sc_core::SC_ZERO_TIME) bus_.fill(in, xfer, pos);
    const sc_time start = die.find(ready, array, pos);
    die.reserve(start, array, pos);
    reg = start;  // the data moved on into the array's page register
    return start + array;
  }
  // tR once the array is free, then data out once the register is.
  ssdtlm::Timeline::Position pos;
  const sc_time start = die.find(earliest, array, pos);
  die.reserve(start, array, pos);
  const sc_time out = std::max(start + array, reg);
  const sc_time end = xfer == sc_core::SC_ZERO_TIME ? out : bus_.fill_end(out, xfer, pos);
  if (xfer != sc_core::SC_ZERO_TIME) bus_.fill(out, xfer, pos);
  reg = end;
  return end;
}

bool NandChannel::suspend_for(FlashCommand& cmd, const sc_time& earliest, const sc_time& t_read, const sc_time& xfer,
                              const sc_time& booked_end, sc_time& end) {
  std::vector<Booking>& booked = booked_[cmd.die];
  sc_time& idle = idle_[cmd.die];
  // absorb[j]: the longest move of booking j that the idle gaps behind it
  // absorb before a booking nobody can move would have to move (unbounded
  // if none): the gaps from j to that booking, summed. A read storm piles
  // bookings up, so this is worked out once per read, not once per
  // candidate (that was quadratic), and not at all when the die's idle time
  // before its last unmovable booking (L) is too short for any read: then
  // only the bookings after L can make room, and for them it is unbounded.
  // (A die with thousands of programs booked ahead, each read booked
  // unmovable behind them, took a walk over all per read: 19 s for 76 IOs.)
  // A storm of reads alone books nothing suspendable: nothing to walk. (A
  // die with 40,000 reads booked ahead, each read walking them all twice,
  // took 32 s for 100 IOs.)
  // (The Debug build's check of idle_ walks the backlog too: it is made
  // where a suspend can happen, and idle_ is a running sum, so a slip made
  // while there was none still shows at the next check.)
  const uint32_t movable = movable_[cmd.die];
  if (movable == 0) return false;
  assert(idle == idle_between(booked, 0, booked.size()));
  static const sc_time unbounded = sc_core::sc_max_time();
  size_t last_fixed = booked.size();  // L
  sc_time idle_behind = sc_core::SC_ZERO_TIME;  // the gaps from L on
  for (size_t j = booked.size(); j-- > 0;) {
    if (j + 1 < booked.size()) idle_behind += gap_after(booked, j);
    if (!booked[j].suspendable) {
      last_fixed = j;
      break;
    }
  }
  const bool only_after_fixed =
      last_fixed == booked.size() || idle - idle_behind < cfg_.t_suspend + t_read + xfer;
  // Only the bookings from the first suspendable one to the last can make
  // room (the others are skipped below, and their absorb is never asked):
  // the walks stay inside that span. After L every booking is suspendable;
  // otherwise the span is found from the front, up to the last of them (a
  // program booked ahead of thousands of reads is near it).
  size_t first_movable = only_after_fixed && last_fixed < booked.size() ? last_fixed + 1 : 0;
  size_t last_movable = booked.size() - 1;
  if (!only_after_fixed) {
    for (size_t f = 0, seen = 0;; ++f) {
      if (!booked[f].suspendable) continue;
      if (seen++ == 0) first_movable = f;
      if (seen == movable) {
        last_movable = f;
        break;
      }
    }
  }
  absorb_.resize(booked.size());
  for (size_t j = last_movable + 1; j-- > first_movable && !only_after_fixed;) {
    if (!booked[j].suspendable || j + 1 == booked.size()) {
      absorb_[j] = unbounded;
      continue;
    }
    const sc_time gap = gap_after(booked, j);
    const sc_time& rest = absorb_[j + 1];
    absorb_[j] = !booked[j + 1].suspendable ? gap : rest == unbounded ? rest : gap + rest;
  }
  const auto absorb = [&](size_t i) { return only_after_fixed ? unbounded : absorb_[i]; };
  for (size_t i = first_movable; i <= last_movable; ++i) {
    Booking& b = booked[i];
    if (!b.suspendable || b.end <= earliest) continue;
    if (cfg_.max_suspends != 0 && b.suspends == cfg_.max_suspends) continue;  // it must progress: wait
    // The array step must have begun (a program's data moves in first); a
    // read that suspended it already has the die until its data is out.
    const sc_time at = std::max({earliest, b.array_start, b.read_end});
    const sc_time start = at + cfg_.t_suspend;
    if (start >= b.end) continue;  // waiting for it is as quick
    // The die is away for at least t_suspend + tR + the transfer: if even
    // that cannot be absorbed, this one cannot be suspended. (Skipping it
    // before the check below changes nothing: later candidates end later.)
    if (cfg_.t_suspend + t_read + xfer > absorb(i)) continue;
    end = xfer == sc_core::SC_ZERO_TIME ? start + t_read : bus_.fill_end(start + t_read, xfer);
    // Later candidates would end later still.
    if (end >= booked_end) return false;
    // The die spends [at, end) away from the operation, which ends that much
    // later; each booking behind it moves by what the gap before it does not
    // absorb. All that moves must be movable.
    const sc_time away = end - at;
    if (away > absorb(i)) continue;
    sc_time carry = away;
    size_t last = i;
    while (last + 1 < booked.size() && carry > gap_after(booked, last)) {
      carry -= gap_after(booked, last);
      ++last;
    }
    if (bus_track_) {
      // The read runs inside the operation's booking, which stays on the
      // die's track: it is drawn on the die's track of suspended reads, from
      // the suspend command to its data's end.
      ActivityTrack* reads = suspend_tracks_.at(cmd.die);
      reads->label(Activity::Read, false, cmd.lpn, cmd.ppn, cmd.bytes);
      reads->reserved(at, end);
      bus_track_->label(Activity::Transfer, false, cmd.lpn, cmd.ppn, cmd.bytes);
    }
    if (xfer != sc_core::SC_ZERO_TIME) bus_.fill(start + t_read, xfer);
    // The die's reservations stay where they are (it is busy with the read
    // or the moved operations); what the moves take of each gap is added.
    ssdtlm::Timeline& die = dies_.at(cmd.die);
    carry = away;
    for (size_t j = i; j <= last; ++j) {
      Booking& m = booked[j];
      const sc_time gap = j + 1 < booked.size() ? gap_after(booked, j) : carry;
      // The move takes this much of the gap after m: all of it, but at the
      // chain's last booking what is left of the carry.
      const sc_time taken = std::min(carry, gap);
      // (On the die's track: the time m is pushed past its booked end, under m's own name.)
      if (bus_track_) die_tracks_[cmd.die]->label(m.what, m.gc, m.lpn, m.ppn, 0, true);
      if (taken != sc_core::SC_ZERO_TIME) die.reserve(m.end, taken);
      if (j + 1 < booked.size()) idle -= taken;
      cmd.resumed.emplace_back(m.end, m.end + carry);
      if (j > i) m.start += carry, m.array_start += carry;
      m.end += carry;
      if (j < last) carry -= gap;
    }
    std::reverse(cmd.resumed.begin(), cmd.resumed.end());  // latest first: no moved end meets an older one
    b.read_end = end;
    ++b.suspends;
    ++stats_.suspends;
    return true;
  }
  return false;
}

void NandChannel::trace(ActivityTrack* bus, std::vector<ActivityTrack*> dies, std::vector<ActivityTrack*> suspended) {
  bus_track_ = bus;
  die_tracks_ = std::move(dies);
  suspend_tracks_ = std::move(suspended);
  bus_.observe(bus);
  for (size_t d = 0; d < dies_.size(); ++d) dies_[d].observe(die_tracks_.at(d));
}

sc_time NandChannel::busy_until() const {
  sc_time t = bus_.busy_until();
  for (const auto& d : dies_) t = std::max(t, d.busy_until());
  return t;
}

double NandChannel::bus_utilisation(const sc_time& elapsed) const {
  return elapsed == sc_core::SC_ZERO_TIME ? 0.0 : bus_.busy() / elapsed;
}

double NandChannel::die_utilisation(uint32_t die, const sc_time& elapsed) const {
  return elapsed == sc_core::SC_ZERO_TIME ? 0.0 : dies_.at(die).busy() / elapsed;
}

}  // namespace ssd
