// The reservation calendar against its first, plain implementation: the fast
// one (tlm/timeline.cpp: one search per call, fill() reserving as it walks)
// must answer every call exactly as this one did, so runs stay bit-identical.
// Random calls on small integer times make gaps, touching reservations and
// zero lengths common.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "model/nand/nand_channel.h"
#include "tlm/timeline.h"

namespace timeline_test {

using sc_core::sc_time;

// Times as whole picoseconds (small integers: gaps and touching bookings common).
sc_time ps(uint64_t v) { return sc_time::from_value(v); }

// The calendar as first written (earliest fit on a sorted vector, fill()
// planned in pieces then reserved one by one).
class ReferenceTimeline {
 public:
  sc_time find(const sc_time& at, const sc_time& duration) const {
    if (at >= last_end_) return at;
    sc_time t = at;
    for (size_t i = first_ending_after(at); i < list_.size(); ++i) {
      if (t + duration <= list_[i].first) return t;
      if (list_[i].second > t) t = list_[i].second;
    }
    return t;
  }
  void reserve(const sc_time& start, const sc_time& duration, std::vector<std::pair<sc_time, sc_time>>& log) {
    if (duration == sc_core::SC_ZERO_TIME) return;
    const sc_time end = start + duration;
    log.emplace_back(start, end);
    busy_ += duration;
    if (start >= last_end_) {
      last_end_ = end;
      if (list_.size() > head_ && list_.back().second == start) list_.back().second = end;
      else list_.emplace_back(start, end);
      return;
    }
    if (end > last_end_) last_end_ = end;
    size_t i = first_ending_after(start);
    if (i > head_ && list_[i - 1].second == start) {
      list_[i - 1].second = end;
      if (i < list_.size() && list_[i].first == end) {
        list_[i - 1].second = list_[i].second;
        list_.erase(list_.begin() + ptrdiff_t(i));
      }
      return;
    }
    if (i < list_.size() && list_[i].first == end) {
      list_[i].first = start;
      return;
    }
    list_.insert(list_.begin() + ptrdiff_t(i), {start, end});
  }
  sc_time book(const sc_time& at, const sc_time& d, std::vector<std::pair<sc_time, sc_time>>& log) {
    const sc_time s = find(at, d);
    reserve(s, d, log);
    return s;
  }
  std::vector<std::pair<sc_time, sc_time>> plan(const sc_time& at, const sc_time& duration) const {
    std::vector<std::pair<sc_time, sc_time>> pieces;  // start, length
    sc_time t = at, left = duration;
    for (size_t i = first_ending_after(at); i < list_.size() && left > sc_core::SC_ZERO_TIME; ++i) {
      if (list_[i].first > t) {
        const sc_time piece = std::min(left, list_[i].first - t);
        pieces.emplace_back(t, piece);
        left -= piece;
      }
      if (list_[i].second > t) t = list_[i].second;
    }
    if (left > sc_core::SC_ZERO_TIME) pieces.emplace_back(t, left);
    return pieces;
  }
  sc_time fill(const sc_time& at, const sc_time& d, std::vector<std::pair<sc_time, sc_time>>& log) {
    if (at >= last_end_) {
      reserve(at, d, log);
      return at + d;
    }
    const auto pieces = plan(at, d);
    for (const auto& p : pieces) reserve(p.first, p.second, log);
    return pieces.empty() ? at : pieces.back().first + pieces.back().second;
  }
  sc_time fill_end(const sc_time& at, const sc_time& d) const {
    if (at >= last_end_) return at + d;
    const auto pieces = plan(at, d);
    return pieces.empty() ? at : pieces.back().first + pieces.back().second;
  }
  sc_time first_conflict_end(const sc_time& start, const sc_time& end) const {
    size_t i = first_ending_after(start);
    return i < list_.size() && list_[i].first < end ? list_[i].second : start;
  }
  sc_time last_conflict_end(const sc_time& start, const sc_time& end) const {
    sc_time last = start;
    for (size_t i = first_ending_after(start); i < list_.size() && list_[i].first < end; ++i) last = list_[i].second;
    return last;
  }
  void retire(const sc_time& now) {
    while (head_ < list_.size() && list_[head_].second <= now) ++head_;
  }
  const sc_time& busy() const { return busy_; }
  const sc_time& busy_until() const { return last_end_; }

 private:
  size_t first_ending_after(const sc_time& t) const {
    size_t i = head_;
    while (i < list_.size() && list_[i].second <= t) ++i;
    return i;
  }
  std::vector<std::pair<sc_time, sc_time>> list_;
  size_t head_ = 0;
  sc_time busy_, last_end_;
};

struct Log : ssdtlm::TimelineObserver {
  std::vector<std::pair<sc_time, sc_time>> seen;
  void reserved(const sc_time& s, const sc_time& e) override { seen.emplace_back(s, e); }
};

TEST(Timeline, AnswersAsTheReferenceCalendar) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    ssdtlm::Timeline fast;
    ReferenceTimeline ref;
    Log fast_log;
    std::vector<std::pair<sc_time, sc_time>> ref_log;
    fast.observe(&fast_log);
    uint64_t now = 0;
    const uint64_t span = 50 + seed * 20;  // how far ahead calls reach (longer: more intervals live)
    for (int step = 0; step < 20000; ++step) {
      const uint64_t r = rng() % 100;
      const sc_time at = ps(now + rng() % span);
      const sc_time d = ps(rng() % 7 == 0 ? 0 : 1 + rng() % 12);
      if (r < 5) {
        now += rng() % 8;
        fast.retire(ps(now));
        ref.retire(ps(now));
      } else if (r < 35) {
        ASSERT_EQ(fast.book(at, d), ref.book(at, d, ref_log)) << "seed " << seed << " step " << step;
      } else if (r < 65) {
        ASSERT_EQ(fast.fill(at, d), ref.fill(at, d, ref_log)) << "seed " << seed << " step " << step;
      } else if (r < 75) {
        ASSERT_EQ(fast.fill_end(at, d), ref.fill_end(at, d)) << "seed " << seed << " step " << step;
      } else if (r < 85) {
        ASSERT_EQ(fast.find(at, d), ref.find(at, d)) << "seed " << seed << " step " << step;
      } else if (r < 92) {
        ASSERT_EQ(fast.first_conflict_end(at, at + d), ref.first_conflict_end(at, at + d))
            << "seed " << seed << " step " << step;
      } else if (r < 96) {  // reserve where it is free, as the NAND channel does
        const sc_time s = ref.find(at, d);
        ASSERT_EQ(fast.first_conflict_end(s, s + d), s);
        fast.reserve(s, d);
        ref.reserve(s, d, ref_log);
      } else {  // the same with positions: a die's span and its transfer on a bus
        ssdtlm::Timeline::Position pos;
        const sc_time s = fast.find(at, d + d, pos);
        ASSERT_EQ(s, ref.find(at, d + d)) << "seed " << seed << " step " << step;
        const sc_time longer = s + d + d + ps(rng() % 3);  // the bus may stretch it into a booking
        ASSERT_EQ(fast.first_conflict_end(s, longer, pos), ref.first_conflict_end(s, longer));
        if (fast.first_conflict_end(s, longer, pos) == s) {
          fast.reserve(s, longer - s, pos);
          ref.reserve(s, longer - s, ref_log);
        } else if (rng() % 2) {
          ASSERT_EQ(fast.fill_end(s, d, pos), ref.fill_end(s, d));
          ASSERT_EQ(fast.fill(s, d, pos), ref.fill(s, d, ref_log));
        } else {  // the NAND channel's retry: resume after the last booking the span ran into
          ssdtlm::Timeline::Position bus;
          ASSERT_EQ(fast.fill_end(s, d, bus), ref.fill_end(s, d));
          const sc_time resume = fast.last_conflict_end(s, longer, pos);
          ASSERT_EQ(resume, ref.last_conflict_end(s, longer)) << "seed " << seed << " step " << step;
          const sc_time again = fast.find_resuming(resume, d + d, pos);
          ASSERT_EQ(again, ref.find(resume, d + d)) << "seed " << seed << " step " << step;
          const sc_time later = again + ps(rng() % 4);
          ASSERT_EQ(fast.fill_end_resuming(later, d, bus), ref.fill_end(later, d)) << "seed " << seed << " step " << step;
          ASSERT_EQ(fast.fill(later, d, bus), ref.fill(later, d, ref_log));
        }
      }
      ASSERT_EQ(fast.busy(), ref.busy());
      ASSERT_EQ(fast.busy_until(), ref.busy_until());
    }
    EXPECT_EQ(fast_log.seen, ref_log) << "seed " << seed;
    // Zero-length finds see how touching reservations are stored.
    for (uint64_t t = now; t < now + span + 20; ++t) ASSERT_EQ(fast.find(ps(t), ps(0)), ref.find(ps(t), ps(0)));
  }
}

// Behind a deep queue (GC work booked far ahead on a die: thousands of
// bookings with gaps shorter than most requests) a search skips blocks of
// 16, 256 and 4096 intervals whose gaps are all too short; what it answers
// must not change, including after bookings land in the middle of the queue
// and the retired front is dropped.
TEST(Timeline, AnswersAsTheReferenceBehindADeepQueue) {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    std::mt19937_64 rng(seed);
    ssdtlm::Timeline fast;
    ReferenceTimeline ref;
    std::vector<std::pair<sc_time, sc_time>> ref_log;
    uint64_t end = 0;
    for (int k = 0; k < 9000; ++k) {  // the queue: bookings 1-6 long, gaps 1-4 (a few 5-20)
      end += 1 + (rng() % 50 == 0 ? 4 + rng() % 16 : rng() % 4);
      const sc_time d = ps(1 + rng() % 6);
      ASSERT_EQ(fast.book(ps(end), d), ref.book(ps(end), d, ref_log));
      end += d.value();
    }
    uint64_t now = 0;
    for (int step = 0; step < 6000; ++step) {
      const sc_time at = ps(now + rng() % (end - now + 10));
      const sc_time d = ps(1 + rng() % 24);  // mostly longer than the queue's gaps
      const uint64_t r = rng() % 100;
      if (r < 55) {
        ASSERT_EQ(fast.find(at, d), ref.find(at, d)) << "seed " << seed << " step " << step;
      } else if (r < 75) {
        const sc_time small = ps(1 + rng() % 3);  // lands in a gap of the queue
        ASSERT_EQ(fast.book(at, small), ref.book(at, small, ref_log)) << "seed " << seed << " step " << step;
      } else if (r < 90) {
        const sc_time piece = ps(1 + rng() % 30);
        ASSERT_EQ(fast.fill(at, piece), ref.fill(at, piece, ref_log)) << "seed " << seed << " step " << step;
      } else {
        now += rng() % 400;
        fast.retire(ps(now));
        ref.retire(ps(now));
      }
    }
    ASSERT_EQ(fast.busy(), ref.busy());
  }
}

// The NAND channel's placement of an operation (NandChannel::place: die
// busy `before`, then die and bus `xfer` in the bus's free pieces, then die
// `after`): the first start whose whole span is free on the die. The plain
// loop retries after the first booking its span runs into; the channel's
// resumes after the last one, searching on from where it stopped. Same answers, on a die and a
// bus booked far ahead with many small gaps.
TEST(Timeline, ResumedPlacementAnswersAsRetryingAfterEachConflict) {
  uint64_t skipped = 0;  // tries whose span ran into more than one booking (the case that differs)
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    std::mt19937_64 rng(seed);
    ssdtlm::Timeline die, bus;
    ReferenceTimeline ref_die, ref_bus;
    std::vector<std::pair<sc_time, sc_time>> log;
    uint64_t die_end = 0, bus_end = 0;
    for (int k = 0; k < 6000; ++k) {  // short die bookings far apart; a bus busy but for small gaps
      die_end += 8 + rng() % 30;
      const sc_time d = ps(1 + rng() % 4);
      die.book(ps(die_end), d), ref_die.book(ps(die_end), d, log);
      die_end += d.value();
      bus_end += rng() % 3;
      const sc_time b = ps(1 + rng() % 30);
      bus.book(ps(bus_end), b), ref_bus.book(ps(bus_end), b, log);
      bus_end += b.value();
    }
    for (int step = 0; step < 800; ++step) {
      const sc_time at = ps(rng() % std::max(die_end, bus_end));
      const sc_time before = ps(rng() % 6), xfer = ps(rng() % 4 == 0 ? 0 : 1 + rng() % 8), after = ps(rng() % 3);
      sc_time ref_start, ref_end, earliest = at;
      for (;;) {
        ref_start = ref_die.find(earliest, before + xfer + after);
        ref_end =
            (xfer == sc_core::SC_ZERO_TIME ? ref_start + before : ref_bus.fill_end(ref_start + before, xfer)) + after;
        const sc_time conflict = ref_die.first_conflict_end(ref_start, ref_end);
        if (conflict == ref_start) break;
        skipped += ref_die.last_conflict_end(ref_start, ref_end) != conflict;
        earliest = conflict;
      }
      ssdtlm::Timeline::Position at_die, on_bus;
      sc_time end;
      const sc_time start = ssd::NandChannel::place(die, bus, at, before, xfer, after, end, at_die, on_bus);
      ASSERT_EQ(start, ref_start) << "seed " << seed << " step " << step;
      ASSERT_EQ(end, ref_end) << "seed " << seed << " step " << step;
    }
  }
  EXPECT_GT(skipped, 1000u);
}

// NandChannel::NoFit: the channel remembers, per die and operation shape,
// the starts a search found not to fit, and the next search of that shape
// skips them. As the calendars only gain reservations, the answers must be
// the ones of a search without it. Three dies booked far ahead with short
// bookings and a bus busy but for small gaps (as the test above: a span
// runs into many bookings), then operations of three shapes placed and
// booked as the channel books them, at times that drift forward with jitter
// (the same range of starts is searched again and again).
TEST(Timeline, PlacementSkippingKnownMisfitsAnswersAsWithout) {
  uint64_t skips = 0;  // searches whose start was inside a known misfit range
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    std::mt19937_64 rng(seed);
    struct Channel {
      ssdtlm::Timeline bus;
      std::vector<ssdtlm::Timeline> dies = std::vector<ssdtlm::Timeline>(3);
    } plain, skipping;
    uint64_t die_end[3] = {0, 0, 0}, bus_end = 0;
    for (int k = 0; k < 6000; ++k) {
      for (size_t d = 0; d < 3; ++d) {
        die_end[d] += 8 + rng() % 30;
        const sc_time b = ps(1 + rng() % 4);
        plain.dies[d].book(ps(die_end[d]), b), skipping.dies[d].book(ps(die_end[d]), b);
        die_end[d] += b.value();
      }
      bus_end += rng() % 3;
      const sc_time b = ps(1 + rng() % 30);
      plain.bus.book(ps(bus_end), b), skipping.bus.book(ps(bus_end), b);
      bus_end += b.value();
    }
    const sc_time shapes[3][3] = {{ps(3), ps(4), ps(0)}, {ps(0), ps(4), ps(2)}, {ps(0), ps(0), ps(9)}};
    std::vector<ssd::NandChannel::NoFitBook> books(3);
    uint64_t now = 0;
    for (int step = 0; step < 4000; ++step) {
      now += rng() % 40;
      const sc_time at = ps(now + rng() % 400);
      const size_t d = rng() % 3, k = rng() % 10 < 7 ? 0 : rng() % 3;  // mostly reads, as GC's copies
      const sc_time &before = shapes[k][0], &xfer = shapes[k][1], &after = shapes[k][2];
      if (const ssd::NandChannel::NoFit* known = books[d].find(before, xfer, after))
        skips += at >= known->from && at < known->to;
      ssdtlm::Timeline::Position at_die, on_bus, at_die2, on_bus2;
      sc_time end, end2;
      const sc_time start =
          ssd::NandChannel::place(plain.dies[d], plain.bus, at, before, xfer, after, end, at_die, on_bus);
      const sc_time start2 = ssd::NandChannel::place(skipping.dies[d], skipping.bus, at, before, xfer, after, end2,
                                                     at_die2, on_bus2, &books[d]);
      ASSERT_EQ(start2, start) << "seed " << seed << " step " << step;
      ASSERT_EQ(end2, end) << "seed " << seed << " step " << step;
      for (auto [ch, pd, pb] : {std::tuple{&plain, &at_die, &on_bus}, std::tuple{&skipping, &at_die2, &on_bus2}}) {
        ch->dies[d].reserve(start, end - start, *pd);
        if (xfer != sc_core::SC_ZERO_TIME) ch->bus.fill(start + before, xfer, *pb);
      }
    }
  }
  EXPECT_GT(skips, 1000u) << skips;
}

}  // namespace timeline_test

