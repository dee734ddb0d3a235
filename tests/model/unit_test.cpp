// Small building blocks: the reservation calendar, units, latency statistics,
// the write cache, the DRAM port.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "model/host/latency_stats.h"
#include "model/sim/units.h"
#include "model/controller/dram_buffer.h"
#include "model/controller/write_cache.h"
#include "tlm/timeline.h"

namespace unit_test {

using sc_core::SC_US;
using sc_core::sc_time;

TEST(Timeline, EarliestFitUsesGapsBeforeLaterReservations) {
  ssdtlm::Timeline t;
  EXPECT_EQ(t.book(sc_time(100, SC_US), sc_time(50, SC_US)), sc_time(100, SC_US));  // [100,150)
  // A later-booked but earlier request fits in front.
  EXPECT_EQ(t.book(sc_time(10, SC_US), sc_time(20, SC_US)), sc_time(10, SC_US));  // [10,30)
  // Too long for the gap [30,100): goes after 150.
  EXPECT_EQ(t.book(sc_time(20, SC_US), sc_time(80, SC_US)), sc_time(150, SC_US));
  // Exactly fits [30,100).
  EXPECT_EQ(t.book(sc_time(0, SC_US), sc_time(70, SC_US)), sc_time(30, SC_US));
  EXPECT_EQ(t.busy(), sc_time(220, SC_US));
  // The four bookings touch end to end and merge into [10, 230): [29, 31) is
  // inside it, free again at 230.
  EXPECT_EQ(t.first_conflict_end(sc_time(29, SC_US), sc_time(31, SC_US)), sc_time(230, SC_US));
  EXPECT_EQ(t.first_conflict_end(sc_time(230, SC_US), sc_time(300, SC_US)), sc_time(230, SC_US));  // free
  t.retire(sc_time(1000, SC_US));
  EXPECT_EQ(t.first_conflict_end(sc_time(1000, SC_US), sc_time(2000, SC_US)), sc_time(1000, SC_US));
}

TEST(Timeline, FillSplitsWorkAcrossGaps) {
  ssdtlm::Timeline t;
  t.book(sc_time(10, SC_US), sc_time(10, SC_US));  // [10,20)
  t.book(sc_time(25, SC_US), sc_time(10, SC_US));  // [25,35)
  // 20 us of work from 0: [0,10) + [20,25) + [35,40).
  EXPECT_EQ(t.fill_end(sc_time(0, SC_US), sc_time(20, SC_US)), sc_time(40, SC_US));
  EXPECT_EQ(t.fill(sc_time(0, SC_US), sc_time(20, SC_US)), sc_time(40, SC_US));
  EXPECT_EQ(t.busy(), sc_time(40, SC_US));
  EXPECT_EQ(t.find(sc_time(0, SC_US), sc_time(1, SC_US)), sc_time(40, SC_US));
}

TEST(Units, SizesNeedUnitsAndArePowersOf1024) {
  uint64_t b = 0;
  EXPECT_EQ(ssd::units::parse_size("4k", b), "");
  EXPECT_EQ(b, 4096u);
  EXPECT_EQ(ssd::units::parse_size("8g", b), "");
  EXPECT_EQ(b, 8ull << 30);
  EXPECT_EQ(ssd::units::parse_size("512B", b), "");
  EXPECT_EQ(b, 512u);
  EXPECT_NE(ssd::units::parse_size("4096", b).find("needs a unit"), std::string::npos);
  EXPECT_NE(ssd::units::parse_size("-4k", b).find("negative"), std::string::npos);
  EXPECT_NE(ssd::units::parse_size("4q", b).find("unknown unit"), std::string::npos);
}

TEST(Units, TimesRatesClocks) {
  double v = 0;
  EXPECT_EQ(ssd::units::parse_seconds("50us", v), "");
  EXPECT_DOUBLE_EQ(v, 50e-6);
  EXPECT_EQ(ssd::units::parse_seconds("3ms", v), "");
  EXPECT_DOUBLE_EQ(v, 3e-3);
  EXPECT_EQ(ssd::units::parse_rate("40MB/s", v), "");
  EXPECT_DOUBLE_EQ(v, 40e6);
  EXPECT_EQ(ssd::units::parse_rate("1MiB/s", v), "");
  EXPECT_DOUBLE_EQ(v, 1048576.0);
  EXPECT_EQ(ssd::units::parse_frequency("200MHz", v), "");
  EXPECT_DOUBLE_EQ(v, 200e6);
  EXPECT_NE(ssd::units::parse_seconds("50", v), "");
  EXPECT_NE(ssd::units::parse_rate("40MB", v), "");
}

TEST(LatencyStats, ExactMomentsAndPercentilesWithinOnePercent) {
  ssd::LatencyStats s;
  for (uint64_t v = 1; v <= 100000; ++v) s.add(v * 10);
  EXPECT_EQ(s.count(), 100000u);
  EXPECT_EQ(s.min(), 10u);
  EXPECT_EQ(s.max(), 1000000u);
  EXPECT_DOUBLE_EQ(s.mean(), 500005.0);
  EXPECT_NEAR(s.stddev(), 288676.0, 1.0);
  EXPECT_NEAR(double(s.percentile(50)), 500000.0, 5000.0);
  EXPECT_NEAR(double(s.percentile(99)), 990000.0, 9900.0);
  EXPECT_EQ(s.percentile(100), 1000000u);
  ssd::LatencyStats one;
  one.add(123456);
  EXPECT_EQ(one.percentile(50), 123456u);  // clamped to the only sample
}

TEST(WriteCache, FullCacheWaitsForTheEarliestDestage) {
  ssd::WriteCache c(2);
  EXPECT_EQ(c.admit(sc_time(0, SC_US)), sc_time(0, SC_US));
  c.insert(1, sc_time(900, SC_US));
  EXPECT_EQ(c.admit(sc_time(1, SC_US)), sc_time(1, SC_US));
  c.insert(2, sc_time(500, SC_US));
  // Both slots held: the next write waits for the page released at 500 us.
  EXPECT_EQ(c.admit(sc_time(2, SC_US)), sc_time(500, SC_US));
  c.insert(3, sc_time(1400, SC_US));
  EXPECT_TRUE(c.holds(1, sc_time(600, SC_US)));
  EXPECT_FALSE(c.holds(2, sc_time(600, SC_US)));
  EXPECT_EQ(c.drained_at(), sc_time(1400, SC_US));
}

TEST(WriteCache, SlotsAreTakenInOrder) {
  // Two pages released together at 500 us: the write that waited for them
  // took one; the next finds the other, free from 500 us, not before.
  ssd::WriteCache c(2);
  c.admit(sc_time(0, SC_US));
  c.insert(1, sc_time(500, SC_US));
  c.admit(sc_time(0, SC_US));
  c.insert(2, sc_time(500, SC_US));
  EXPECT_EQ(c.admit(sc_time(2, SC_US)), sc_time(500, SC_US));
  EXPECT_EQ(c.admit(sc_time(3, SC_US)), sc_time(500, SC_US));
  c.insert(3, sc_time(900, SC_US));
  c.insert(4, sc_time(900, SC_US));
  EXPECT_EQ(c.admit(sc_time(1000, SC_US)), sc_time(1000, SC_US));  // long since released
}

TEST(DramBuffer, ALongTransferMovesAroundAShortOneBookedForLater) {
  // 1 GB/s (a byte a nanosecond), 60 ns latency. A map entry (8 B) is booked
  // for 1000 ns from now, then a 4 KiB transfer from now: the port
  // interleaves them, so the long one ends 8 ns later than alone (4096 +
  // 8 ns, then the latency), not after the short one (1008 + 4096 + 60).
  ssd::DramConfig cfg;
  cfg.bandwidth = 1e9;
  cfg.latency = sc_time(60, sc_core::SC_NS);
  ssd::DramBuffer dram("dram", cfg);
  tlm::tlm_generic_payload trans;
  ssdtlm::DramAccess access;
  trans.set_extension(&access);
  const auto transfer = [&](uint32_t bytes, double from_ns) {
    access.bytes = bytes;
    sc_time delay(from_ns, sc_core::SC_NS);
    dram.socket.get_base_interface().b_transport(trans, delay);
    return delay;
  };
  EXPECT_EQ(transfer(8, 1000), sc_time(1068, sc_core::SC_NS));
  EXPECT_EQ(transfer(4096, 0), sc_time(4164, sc_core::SC_NS));
  EXPECT_EQ(dram.bytes_moved(), 4104u);
  trans.clear_extension(&access);
}

// nand.suspend moves a die's bookings later: the slots of the pages whose
// destage program on that die ended at a move's `from` are held until its
// `to`, and no others; computed here from the moves.
TEST(WriteCache, PostponeHoldsTheSlotsOfTheMovedProgramsOnly) {
  for (const size_t n_moves : {3u, 30u, 66u}) {
    ssd::WriteCache c(1000, 2);
    const auto release = [](uint32_t lpn) { return sc_time(10.0 * (lpn / 2 + 1), SC_US); };  // two pages a program
    // Programs of even index on die 0, odd on die 1, every tenth of no known die.
    const auto die_of = [](uint32_t lpn) { return lpn % 20 >= 18 ? 2u : (lpn / 2) % 2; };
    for (uint32_t lpn = 0; lpn < 200; ++lpn) c.insert(lpn, release(lpn), 0, die_of(lpn));
    // Every third program's end, latest first, each moved 25 us: past the
    // next programs' ends, as a suspension of a packed queue moves them.
    std::vector<std::pair<sc_time, sc_time>> moves;
    for (size_t k = n_moves; k-- > 0;)
      moves.emplace_back(sc_time(10.0 * (3 * k + 1), SC_US), sc_time(10.0 * (3 * k + 1) + 25, SC_US));
    c.postpone(0, moves);
    // Each page is asked for just before and at its slot's release, all in
    // time order (the simulated time never goes back).
    struct Ask {
      sc_time at;
      uint32_t lpn;
      bool held;
    };
    std::vector<Ask> asks;
    size_t moved = 0;
    for (uint32_t lpn = 0; lpn < 200; ++lpn) {
      const uint32_t program = lpn / 2;  // released at 10 us * (program + 1)
      const bool is_moved = die_of(lpn) == 0 && program % 3 == 0 && program / 3 < n_moves;
      const sc_time until = release(lpn) + sc_time(is_moved ? 25.0 : 0.0, SC_US);
      moved += is_moved;
      asks.push_back({until - sc_time::from_value(1), lpn, true});
      asks.push_back({until, lpn, false});
    }
    std::stable_sort(asks.begin(), asks.end(), [](const Ask& a, const Ask& b) { return a.at < b.at; });
    for (const Ask& a : asks)
      EXPECT_EQ(c.holds(a.lpn, a.at) != nullptr, a.held) << n_moves << " moves, lpn " << a.lpn << " at " << a.at;
    EXPECT_GT(moved, 0u);
    EXPECT_EQ(c.drained_at(), std::max(release(199), moves.front().second));
  }
  // A slot moved past the next one: a full cache then waits for that one first.
  ssd::WriteCache full(2, 2);
  full.admit(sc_core::SC_ZERO_TIME), full.insert(1, sc_time(100, SC_US), 0, 0);
  full.admit(sc_core::SC_ZERO_TIME), full.insert(2, sc_time(110, SC_US), 0, 0);
  full.postpone(0, {{sc_time(100, SC_US), sc_time(130, SC_US)}});
  EXPECT_EQ(full.admit(sc_time(1, SC_US)), sc_time(110, SC_US));
  EXPECT_EQ(full.admit(sc_time(1, SC_US)), sc_time(130, SC_US));
  // A page rewritten onto another die while its first destage runs: the
  // first slot follows its own program (die 0), not the new copy's die.
  ssd::WriteCache rewrite(2, 2);
  rewrite.admit(sc_core::SC_ZERO_TIME), rewrite.insert(7, sc_time(100, SC_US), 1, 0);
  rewrite.admit(sc_core::SC_ZERO_TIME), rewrite.insert(7, sc_time(50, SC_US), 2, 1);
  rewrite.postpone(0, {{sc_time(100, SC_US), sc_time(200, SC_US)}});
  EXPECT_EQ(rewrite.admit(sc_time(150, SC_US)), sc_time(150, SC_US));  // the new copy's slot is free
  EXPECT_EQ(rewrite.admit(sc_time(150, SC_US)), sc_time(200, SC_US));  // the first program now ends at 200
}

}  // namespace unit_test

