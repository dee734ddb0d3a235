// Hybrid FTLs with ftl.hybrid.stripe (a logical block over a group of dies:
// page k on die k % s at page k / s) and ftl.hybrid.interleave (LPN l on die
// l % dies, each die's logical blocks of every dies-th LPN): placement, a
// shadow map through random writes and trims, refusals (plain C++ on
// FtlWork), and the exact latency of a striped full merge on an idle drive
// (one simulation).
#include <gtest/gtest.h>

#include <vector>

#include "model/ftl/ftl.h"
#include "model/host/io_source.h"
#include "model/nand/flash_media.h"
#include "model/sim/random.h"
#include "tests/model/ftl/hybrid_rig.h"
#include "tests/model/timed_source.h"
#include "tests/model/timing_drive.h"

namespace ssd {
namespace hybrid_stripe_test {

using Kind = ftl::FlashOp::Kind;
using namespace hybrid_test;

// 4 dies (2 channels x 2) x 16 blocks x 4 pages, 25 % spare.
FlashGeometry four_dies() {
  FlashGeometry g = tiny();
  g.channels = 2, g.dies_per_channel = 2;
  return g;
}

TEST(HybridStripe, PageKOfALogicalBlockIsOnDieKModStripeAtPageKOverStripe) {
  // Stripe 2: logical block 0 is LPNs 0-7 on dies 0 and 1 (group 0), logical
  // block 1 LPNs 8-15 on dies 2 and 3. In-order writes of both: each LPN's
  // page k on die k % 2 of its group, at page k / 2 of that die's block.
  for (const char* name : {"bast", "fast"}) {
    FlashGeometry g = four_dies();
    FlashMedia media{g, true};
    auto f = ftl::FtlRegistry::instance().create(name, params(g, 2, true, 0.25, 2), media);
    ftl::FtlWork w;
    for (uint32_t l = 0; l < 16; ++l) {
      w.clear();
      f->write(Lpn(l), l + 1, w);
      const Ppn p = f->lookup(Lpn(l));
      EXPECT_EQ(g.die_of(p).v, l / 8 * 2 + l % 2) << name << " LPN " << l;
      EXPECT_EQ(g.page_in_block(p), l % 8 / 2) << name << " LPN " << l;
      EXPECT_EQ(media.read(p).version, l + 1) << name << " LPN " << l;
      ASSERT_FALSE(w.ops.empty());
      EXPECT_EQ(w.ops.back().ppn, p) << name << ": the host program goes to the page the map names";
    }
    f->check_consistency();
  }
}

TEST(HybridInterleave, LpnLIsOnDieLModDiesAtPageLOverDiesOfItsBlock) {
  // 4 dies, 4 pages per block: LPNs 0-3 on dies 0-3 (page 0 of each die's
  // first logical block), 4-7 at page 1, ...; the spare area names the host's LPN.
  for (const char* name : {"bast", "fast"}) {
    FlashGeometry g = four_dies();
    FlashMedia media{g, true};
    auto f = ftl::FtlRegistry::instance().create(name, params(g, 2, true, 0.25, 1, true), media);
    ftl::FtlWork w;
    for (uint32_t l = 0; l < 16; ++l) {
      w.clear();
      f->write(Lpn(l), l + 1, w);
      const Ppn p = f->lookup(Lpn(l));
      EXPECT_EQ(g.die_of(p).v, l % 4) << name << " LPN " << l;
      EXPECT_EQ(g.page_in_block(p), l / 4) << name << " LPN " << l;
      EXPECT_EQ(media.read(p).lpn, l) << name;
      EXPECT_EQ(media.read(p).version, l + 1) << name;
    }
    f->check_consistency();
  }
}

TEST(HybridStripe, RandomWritesAndTrimsKeepMapAndFlashConsistent) {
  // Merges of every kind across the group's dies, against a shadow map; a
  // set's erases are one per die, the later ones siblings of the first.
  // (stripe 1 interleaved, and stripe 2 interleaved over the two groups:
  // the host's LPNs in another order, the same checks.)
  const std::vector<std::pair<double, bool>> layouts{{2, false}, {4, false}, {1, true}, {2, true}};
  for (const char* name : {"bast", "fast"})
    for (const auto& [stripe, interleave] : layouts) {
      FlashGeometry g = four_dies();
      FlashMedia media{g, true};
      auto f = ftl::FtlRegistry::instance().create(name, params(g, 2, true, 0.25, stripe, interleave), media);
      std::vector<uint64_t> shadow(f->user_pages(), 0);
      Random rng(7);
      ftl::FtlWork w;
      uint64_t version = 0, erases = 0;
      for (int i = 0; i < 4000; ++i) {
        const uint32_t l = uint32_t(rng.below(shadow.size()));
        w.clear();
        if (rng.percent() < 5) {
          f->trim(Lpn(l), w);
          shadow[l] = 0;
        } else {
          f->write(Lpn(l), ++version, w);
          shadow[l] = version;
        }
        for (size_t k = 0; k < w.ops.size(); ++k) {
          const auto& op = w.ops[k];
          if (op.kind != Kind::Erase) continue;
          ++erases;
          EXPECT_TRUE(op.barrier);
          // Within a set, consecutive erases on the group's next die.
          if (op.sibling) {
            ASSERT_GT(k, 0u);
            EXPECT_EQ(w.ops[k - 1].kind, Kind::Erase);
            EXPECT_EQ(g.die_of(op.ppn).v, g.die_of(w.ops[k - 1].ppn).v + 1);
          }
        }
      }
      EXPECT_GT(erases, 100u) << name << " " << stripe << " " << interleave;  // merges ran
      f->check_consistency();
      for (uint32_t l = 0; l < shadow.size(); ++l) {
        ftl::FtlWork r;
        f->read(Lpn(l), r);
        PageContent c;
        ASSERT_EQ(r.returns(media, c), shadow[l] != 0) << name << " " << stripe << " LPN " << l;
        if (shadow[l]) {
          EXPECT_EQ(c.version, shadow[l]) << name << " " << stripe << " LPN " << l;
          EXPECT_EQ(c.lpn, l) << name << " " << stripe << " " << interleave;  // the spare area names the host's LPN
        }
      }
    }
}

TEST(HybridStripe, AStripeThatDoesNotDivideTheDiesIsRefused) {
  FlashGeometry g = four_dies();
  FlashMedia media{g, true};
  for (double s : {0.0, 3.0, 8.0, 1.5})
    EXPECT_THROW(ftl::FtlRegistry::instance().create("bast", params(g, 2, true, 0.25, s), media), ftl::FtlConfigError)
        << s;
}

// --- exact timing on an idle drive (one simulation) ---

TEST(HybridTiming, AStripedFullMergeCopiesAndErasesOnItsDiesAtOnce) {
  // The full merge above with ftl.hybrid.stripe=2 on 2 channels x 1 die:
  // logical block 0 is LPNs 0-7, page k on die k % 2. LPNs 0..7 fill log A
  // in order (switched into the data block by the next write); log B then
  // gets 2, 3, 0, 1, 6, 7, 4, 5 (each on the die of its LPN's parity), and
  // writing 0 again merges B: 8 copies, 4 on each die, side by side; 21 ops
  // to issue; the erases of A's and B's block sets (two dies each: one
  // tBERS per set, the second die's a sibling); then the host page, on die 0.
  expect_full_merge_timing(2, {0, 1, 2, 3, 4, 5, 6, 7, 2, 3, 0, 1, 6, 7, 4, 5, 0});
}

}  // namespace hybrid_stripe_test

}  // namespace ssd
