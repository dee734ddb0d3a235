// The page FTL's analytic steady state (the `steady` state phase,
// model/ftl/page/steady_state.cpp): its structure from the parameters
// (every user page mapped once, each die's share, the free pool at the
// watermark, the greedy fluid model's exponential valid-count profile), and
// its purpose: the WA of random writes that follow it matches the WA after
// the functional way there (fill, then overwrites).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "model/ftl/ftl.h"
#include "model/ftl/page/page_ftl.h"
#include "model/nand/flash_media.h"
#include "model/sim/random.h"

namespace ssd {
namespace steady_state_test {

FlashGeometry geometry(uint32_t blocks, uint32_t pages) {
  FlashGeometry g;
  g.channels = 2;
  g.dies_per_channel = 2;
  g.planes_per_die = 1;
  g.blocks_per_plane = blocks;
  g.pages_per_block = pages;
  g.page_size = 4096;
  return g;
}

std::unique_ptr<ftl::Ftl> make(const FlashGeometry& g, FlashMedia& media, double op, const char* policy = "greedy") {
  ftl::FtlParams p;
  p.geometry = g;
  p.over_provisioning = op;
  p.gc_threshold = 2;
  p.options.text["ftl.gc.policy"] = policy;
  return ftl::FtlRegistry::instance().create("page", p, media);
}

// WA of `n` uniform random page writes through the FTL.
double random_writes_wa(ftl::Ftl& f, uint64_t n, uint64_t seed) {
  Random rng(seed);
  ftl::FtlWork w;
  w.record_ops = false;
  const uint64_t before_host = f.stats().host_pages_written, before_flash = f.stats().flash_pages_written;
  for (uint64_t i = 0; i < n; ++i) {
    w.clear();
    f.write(Lpn(uint32_t(rng.below(f.user_pages()))), i, w);
  }
  return double(f.stats().flash_pages_written - before_flash) / double(f.stats().host_pages_written - before_host);
}

TEST(SteadyState, EveryUserPageMappedOnceWithEachDiesShare) {
  const FlashGeometry g = geometry(256, 64);
  FlashMedia media(g, true);
  auto f = make(g, media, 0.10);
  std::map<uint64_t, uint64_t> versions;
  ASSERT_TRUE(f->steady_state(7, [&](uint64_t lpn) { return versions[lpn] = 1000 + lpn; }));
  f->check_consistency();  // l2p / p2l / valid counts / buckets / free list agree
  EXPECT_EQ(versions.size(), f->user_pages());
  std::vector<uint64_t> per_die(g.dies(), 0);
  for (uint64_t l = 0; l < f->user_pages(); ++l) {
    const Ppn p = f->lookup(Lpn(uint32_t(l)));
    ASSERT_TRUE(media.is_programmed(p)) << l;
    EXPECT_EQ(media.read(p).lpn, l);
    EXPECT_EQ(media.read(p).version, 1000 + l);
    ++per_die[g.die_of(p).v];
  }
  for (uint32_t d = 0; d < g.dies(); ++d)
    EXPECT_EQ(per_die[d], f->user_pages() / g.dies() + (d < f->user_pages() % g.dies())) << "die " << d;
  // The free pool at GC's watermark (2) plus the block the next write opens.
  for (const auto& s : f->extra_stats()) {
    if (s.name == "free_blocks") {
      EXPECT_EQ(s.value, 3.0 * g.dies());
    }
  }
}

// The mapping table is filled from the reverse table window by window of
// LPNs (one window on a drive below 1 GiB of entries): with windows of 100
// LPNs, the last one short, the same table entry for entry.
TEST(SteadyState, MappingTableFilledInWindowsIsTheSame) {
  const FlashGeometry g = geometry(256, 64);
  FlashMedia one_media(g, false), many_media(g, false);
  auto one = make(g, one_media, 0.10), many = make(g, many_media, 0.10);
  auto* page = dynamic_cast<ftl::PageFtl*>(many.get());
  ASSERT_NE(page, nullptr);
  page->map_fill_window(100);
  ASSERT_NE(many->user_pages() % 100, 0u);  // a short last window
  ASSERT_TRUE(one->steady_state(11, [](uint64_t) { return 1; }));
  ASSERT_TRUE(many->steady_state(11, [](uint64_t) { return 1; }));
  many->check_consistency();
  for (uint64_t l = 0; l < many->user_pages(); ++l)
    ASSERT_EQ(many->lookup(Lpn(uint32_t(l))).v, one->lookup(Lpn(uint32_t(l))).v) << l;
}

TEST(SteadyState, ValidCountsFollowTheGreedyFluidModel) {
  // Closed blocks C = 256 - 3 per die; valid counts ppb exp(-k x), k = 0..C-1,
  // with x such that they add up to the die's share. Solved here by Newton.
  const FlashGeometry g = geometry(256, 64);
  FlashMedia media(g, false);
  auto f = make(g, media, 0.10);
  ASSERT_TRUE(f->steady_state(3, [](uint64_t) { return 1; }));
  const uint32_t ppb = 64, closed = 253;
  const double share = double(f->user_pages() / g.dies());
  double x = 0.01;
  for (int i = 0; i < 50; ++i) {
    double s = 0, ds = 0;
    for (uint32_t k = 0; k < closed; ++k) s += ppb * std::exp(-double(k) * x), ds -= double(k) * ppb * std::exp(-double(k) * x);
    x -= (s - share) / ds;
  }
  // Count valid pages per block of die 0 from the mapping.
  std::vector<uint32_t> per_block(g.blocks_per_die(), 0);
  for (uint64_t l = 0; l < f->user_pages(); ++l) {
    const Ppn p = f->lookup(Lpn(uint32_t(l)));
    if (g.die_of(p).v == 0) ++per_block[g.block_of(p).v];
  }
  std::vector<uint32_t> sorted(per_block.begin(), per_block.begin() + closed);
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  for (uint32_t k = 0; k < closed; ++k)
    EXPECT_NEAR(sorted[k], ppb * std::exp(-double(k) * x), 1.0) << "age rank " << k;
  for (uint32_t b = closed; b < g.blocks_per_die(); ++b) EXPECT_EQ(per_block[b], 0u) << "free block " << b;
}

TEST(SteadyState, RandomWritesAfterItHaveTheWaOfTheFunctionalState) {
  // The functional way: fill, then 4 capacities of random overwrites (GC
  // settles within about two). Then one capacity of random writes on each.
  const FlashGeometry g = geometry(512, 64);
  FlashMedia m1(g, false), m2(g, false);
  auto functional = make(g, m1, 0.10), steady = make(g, m2, 0.10);
  ftl::FtlWork w;
  w.record_ops = false;
  for (uint64_t l = 0; l < functional->user_pages(); ++l) w.clear(), functional->write(Lpn(uint32_t(l)), 0, w);
  random_writes_wa(*functional, 4 * functional->user_pages(), 11);
  ASSERT_TRUE(steady->steady_state(5, [](uint64_t) { return 1; }));
  const double wa_functional = random_writes_wa(*functional, functional->user_pages(), 12);
  const double wa_steady = random_writes_wa(*steady, steady->user_pages(), 12);
  RecordProperty("wa_steady", std::to_string(wa_steady));
  RecordProperty("wa_functional", std::to_string(wa_functional));
  EXPECT_NEAR(wa_steady / wa_functional, 1.0, 0.02) << "steady " << wa_steady << ", functional " << wa_functional;
  steady->check_consistency();
}

TEST(SteadyState, OtherGcPoliciesAreRefusedNamingTheOption) {
  const FlashGeometry g = geometry(64, 32);
  FlashMedia media(g, false);
  auto fifo = make(g, media, 0.25, "fifo");
  try {
    fifo->steady_state(1, [](uint64_t) { return 1; });
    FAIL() << "fifo accepted";
  } catch (const ftl::FtlConfigError& e) {
    EXPECT_EQ(e.key, "ftl.gc.policy");
  }
  // (Other FTLs, which return false, are refused on the command line: state_test.cpp.)
}

}  // namespace steady_state_test

}  // namespace ssd
