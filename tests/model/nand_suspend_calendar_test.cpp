// Program/erase suspend on one NAND die's calendar (model/nand/nand_channel.h),
// driven by flash commands directly: a read suspends the running program;
// the bookings behind it move by what the idle gap before each does not
// absorb, and a read never moves a booking that cannot be postponed (it
// then waits, as without suspend). No data moves (bytes = 0), so every time
// is a sum of tPROG, tR and t_suspend. The drive-level cases (a destage, a
// write-through write, an erase; off and on) are in nand_suspend_test.cpp.
// The last tests drive a channel the same way, with data on the bus: the
// cache register's programs beside another die's read, and the register
// shared by a die's programs and reads (nand_cache_test.cpp has one die).
#include <gtest/gtest.h>

#include <functional>
#include <utility>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "model/nand/nand_channel.h"
#include "tlm/ssd_protocol.h"

namespace nand_suspend_calendar_test {

using sc_core::sc_time;
using sc_core::SC_US;
using ssdtlm::FlashCommand;
using ssdtlm::FlashOpKind;

const sc_time kProg(900, SC_US), kRead(50, SC_US), kSuspend(30, SC_US);

ssd::NandConfig one_die(uint32_t max_suspends = 0) {
  ssd::NandConfig c;
  c.max_suspends = max_suspends;
  c.geometry.channels = 1;
  c.geometry.dies_per_channel = 1;
  c.t_prog = kProg, c.t_read = kRead;
  c.suspend = true, c.t_suspend = kSuspend;
  return c;
}

// Runs `script` in a thread; flash commands go to one channel.
struct Driver : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Driver> socket{"socket"};
  ssd::NandChannel channel;
  std::function<void(Driver&)> script;

  Driver(sc_core::sc_module_name name, std::function<void(Driver&)> s, const ssd::NandConfig& cfg = one_die())
      : sc_module(name), channel("channel", cfg), script(std::move(s)) {
    socket.bind(channel.socket);
    sc_core::sc_spawn([this] { script(*this); });
  }
  // Books `kind` (a program: suspendable or not) `after` from now, on `die`,
  // moving `bytes` over the bus; returns its end and the moves a read reported.
  // A 4 KiB page's `kind` booked now on `die` (the cache register's tests).
  sc_time page(FlashOpKind kind, uint32_t die = 0) { return op(kind, sc_core::SC_ZERO_TIME, false, nullptr, die, 4096); }
  sc_time op(FlashOpKind kind, const sc_time& after, bool suspendable = false,
             std::vector<std::pair<sc_time, sc_time>>* moved = nullptr, uint32_t die = 0, uint32_t bytes = 0) {
    FlashCommand cmd;
    cmd.kind = kind;
    cmd.die = die;
    cmd.bytes = bytes;
    cmd.suspendable = suspendable;
    cmd.host_read = kind == FlashOpKind::Read;  // a host read's: it may suspend
    tlm::tlm_generic_payload t;
    t.set_extension(&cmd);
    sc_time delay = after;
    socket->b_transport(t, delay);
    t.clear_extension(&cmd);
    if (moved) *moved = cmd.resumed;
    return sc_core::sc_time_stamp() + delay;
  }
};

sc_time us(double v) { return sc_time(v, SC_US); }

// Program A [0, 900 us], a second program booked `gap` after it (movable or
// not), a read at 300 us; then a probe erase booked as soon as possible.
struct Case {
  sc_time read_end, b_end_as_booked, probe_start;
  std::vector<std::pair<sc_time, sc_time>> moved;
  uint64_t suspends = 0;
  sc_time die_busy;
};

Case run(const sc_time& gap, bool second_movable) {
  Case c;
  Driver d("driver", [&](Driver& self) {
    EXPECT_EQ(self.op(FlashOpKind::Program, sc_core::SC_ZERO_TIME, true), kProg);
    c.b_end_as_booked = self.op(FlashOpKind::Program, kProg + gap, second_movable);
    sc_core::wait(us(300));
    c.read_end = self.op(FlashOpKind::Read, sc_core::SC_ZERO_TIME, false, &c.moved);
    c.probe_start = self.op(FlashOpKind::Erase, sc_core::SC_ZERO_TIME) - ssd::NandConfig{}.t_erase;
  });
  sc_core::sc_start();
  c.suspends = d.channel.stats().suspends;
  c.die_busy = d.channel.die_busy(0) - ssd::NandConfig{}.t_erase;
  return c;
}

TEST(SuspendCalendar, AGapLongerThanTheTimeAwayAbsorbsIt) {
  // The read: t_suspend then tR from its arrival; the die was away from A
  // for 80 us, which the 100 us gap absorbs: only A moves.
  const Case c = run(us(100), false);
  const sc_time away = kSuspend + kRead;
  EXPECT_EQ(c.read_end, us(300) + away);
  ASSERT_EQ(c.moved.size(), 1u);
  EXPECT_EQ(c.moved[0], std::make_pair(kProg, kProg + away));
  EXPECT_EQ(c.suspends, 1u);
  // The probe fits in no gap: it follows B, which kept its time.
  EXPECT_EQ(c.b_end_as_booked, kProg + us(100) + kProg);
  EXPECT_EQ(c.probe_start, c.b_end_as_booked);
  EXPECT_EQ(c.die_busy, 2 * kProg + away);
}

TEST(SuspendCalendar, TheBookingsBehindMoveByWhatTheGapsLeave) {
  // A 50 us gap before B: A moves by 80 us, B by 30 us (latest first).
  const Case c = run(us(50), true);
  const sc_time away = kSuspend + kRead, b_end = kProg + us(50) + kProg;
  EXPECT_EQ(c.read_end, us(300) + away);
  ASSERT_EQ(c.moved.size(), 2u);
  EXPECT_EQ(c.moved[0], std::make_pair(b_end, b_end + away - us(50)));
  EXPECT_EQ(c.moved[1], std::make_pair(kProg, kProg + away));
  EXPECT_EQ(c.probe_start, b_end + away - us(50));
  EXPECT_EQ(c.die_busy, 2 * kProg + away);
}

TEST(SuspendCalendar, AReadNeverMovesWhatCannotBePostponed) {
  // A 40 us gap (shorter than tR: the read does not fit in it) before a B
  // that cannot move (say a plain TLM payload's write-through program): the
  // read does not suspend A and waits for both, as without suspend.
  const Case c = run(us(40), false);
  const sc_time b_end = kProg + us(40) + kProg;
  EXPECT_TRUE(c.moved.empty());
  EXPECT_EQ(c.suspends, 0u);
  EXPECT_EQ(c.read_end, b_end + kRead);
  EXPECT_EQ(c.probe_start, b_end + kRead);
  EXPECT_EQ(c.die_busy, 2 * kProg + kRead);
}

TEST(SuspendCalendar, BehindWhatCannotBePostponedAReadSuspendsALaterProgram) {
  // Program A [0, 900 us] (movable), B right behind it that cannot move, C
  // (movable) 40 us after B: too short a gap for tR. A read at 300 us cannot
  // suspend A (the 80 us away would push B), and would end tR after C; it
  // suspends C instead, as C's array step begins: t_suspend and tR later.
  // (The die's idle time before B is too short for any read, so only the
  // bookings after B are tried: suspend_for's shortcut, the same answer.)
  sc_time read_end, c_end;
  std::vector<std::pair<sc_time, sc_time>> moved;
  Driver d("driver", [&](Driver& self) {
    self.op(FlashOpKind::Program, sc_core::SC_ZERO_TIME, true);
    self.op(FlashOpKind::Program, kProg, false);
    c_end = self.op(FlashOpKind::Program, 2 * kProg + us(40), true);
    sc_core::wait(us(300));
    read_end = self.op(FlashOpKind::Read, sc_core::SC_ZERO_TIME, false, &moved);
  });
  sc_core::sc_start();
  const sc_time c_start = 2 * kProg + us(40), away = kSuspend + kRead;
  EXPECT_EQ(c_end, c_start + kProg);
  EXPECT_EQ(read_end, c_start + away);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0], std::make_pair(c_end, c_end + away));
  EXPECT_EQ(d.channel.stats().suspends, 1u);
}

// Program A [0, 900 us], then three reads arriving together at 300 us;
// returns their ends and the suspend count.
std::pair<std::vector<sc_time>, uint64_t> three_reads(uint32_t max_suspends) {
  std::vector<sc_time> ends;
  Driver d(
      "driver",
      [&](Driver& self) {
        self.op(FlashOpKind::Program, sc_core::SC_ZERO_TIME, true);
        sc_core::wait(us(300));
        for (int i = 0; i < 3; ++i) ends.push_back(self.op(FlashOpKind::Read, sc_core::SC_ZERO_TIME));
      },
      one_die(max_suspends));
  sc_core::sc_start();
  return {ends, d.channel.stats().suspends};
}

TEST(SuspendCalendar, EachReadSuspendsTheProgramAgain) {
  // Each read takes the die when the previous one's data is out: t_suspend
  // and tR after it, the program ending that much later each time.
  const sc_time away = kSuspend + kRead;
  const auto [ends, suspends] = three_reads(0);
  EXPECT_EQ(ends, (std::vector<sc_time>{us(300) + away, us(300) + 2 * away, us(300) + 3 * away}));
  EXPECT_EQ(suspends, 3u);
}

TEST(SuspendCalendar, PastTheLimitAReadWaitsForTheProgram) {
  // nand.max_suspends = 2: the third read waits for the program's end
  // (moved twice), then tR.
  const sc_time away = kSuspend + kRead;
  const auto [ends, suspends] = three_reads(2);
  EXPECT_EQ(ends, (std::vector<sc_time>{us(300) + away, us(300) + 2 * away, kProg + 2 * away + kRead}));
  EXPECT_EQ(suspends, 2u);
}

TEST(CacheRegister, AProgramsTransferWaitsForTheRegisterAndLeavesTheBusToAnotherDie) {
  // nand.cache_program on a channel of two dies, 4 KiB at 40 MB/s: x =
  // 102.4 us a transfer. Three programs on die 0 at 0: the first's data goes
  // in at 0, the second's once the first moved on into the array (x), the
  // third's once the second did (at x + tPROG, when the first's program
  // ends). Die 1's read at 0 (tR, then its data out) takes the bus in the
  // gap between: it ends at 3x, not after the third program's transfer.
  ssd::NandConfig c;
  c.geometry.channels = 1;
  c.geometry.dies_per_channel = 2;
  c.t_prog = kProg, c.t_read = kRead;
  c.cache_program = true;
  const sc_time x(4096 / 40e6, sc_core::SC_SEC);
  sc_time read_end;
  std::vector<sc_time> programs;
  Driver d("driver", [&](Driver& self) {
    for (int i = 0; i < 3; ++i)
      programs.push_back(self.page(FlashOpKind::Program));
    read_end = self.page(FlashOpKind::Read, 1);
  }, c);
  sc_core::sc_start();
  EXPECT_EQ(programs[0], x + kProg);
  EXPECT_EQ(programs[1], x + 2 * kProg);
  EXPECT_EQ(programs[2], x + 3 * kProg);
  EXPECT_EQ(read_end, 3 * x);
}

// One die with the cache register; x = 102.4 us, a 4 KiB transfer at 40 MB/s.
ssd::NandConfig cached_die(bool cache_read) {
  ssd::NandConfig c;
  c.geometry.channels = 1;
  c.geometry.dies_per_channel = 1;
  c.t_prog = kProg, c.t_read = kRead;
  c.cache_program = true, c.cache_read = cache_read;
  return c;
}
const sc_time kX(4096 / 40e6, sc_core::SC_SEC);

TEST(CacheRegister, AProgramsDataWaitsForTheReadBookedBeforeItToDrainTheRegister) {
  // A cached program P1 at 0 (data in over [0, x], tPROG from x), then an
  // uncached read R, which finds the die free once P1 ends: tR from x + T,
  // its data out through the register until 2x + T + tR. A second program
  // P2 may not load its data into the register R still has to drain: its
  // data goes in after R's left, 2x + T + tR, and its tPROG ends at
  // 3x + 2T + tR (with its data in at x, waiting in the register through
  // R, it would end x earlier).
  sc_time p1, r, p2;
  Driver d("driver", [&](Driver& self) {
    p1 = self.page(FlashOpKind::Program);
    r = self.page(FlashOpKind::Read);
    p2 = self.page(FlashOpKind::Program);
  }, cached_die(false));
  sc_core::sc_start();
  EXPECT_EQ(p1, kX + kProg);
  EXPECT_EQ(r, 2 * kX + kProg + kRead);
  EXPECT_EQ(p2, 3 * kX + 2 * kProg + kRead);
}

TEST(CacheRegister, ACachedReadWaitsForTheProgramWhoseDataIsInTheRegister) {
  // Both cache modes. A cached program at 0: data in over [0, x], tPROG
  // from x. A cached read at 0 may not run its tR in the die's idle time
  // before x (the register holds the program's data, which the tPROG
  // needs): tR from x + T, data out until 2x + T + tR.
  sc_time p, r;
  Driver d("driver", [&](Driver& self) {
    p = self.page(FlashOpKind::Program);
    r = self.page(FlashOpKind::Read);
  }, cached_die(true));
  sc_core::sc_start();
  EXPECT_EQ(p, kX + kProg);
  EXPECT_EQ(r, 2 * kX + kProg + kRead);
}

}  // namespace nand_suspend_calendar_test
