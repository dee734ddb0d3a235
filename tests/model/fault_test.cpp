// Faults injected through the FTL plug-in interface (test-only plug-ins
// registered in this binary), to prove that the checks can fail:
// `check.content` catches a read served from the wrong page, and an
// exception inside the timed phase ends the run with its message instead of
// aborting the process. Also: the page FTL's block reserve holds on every
// geometry the option check accepts (D1).
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

#include "model/host/content_shadow.h"
#include "model/ftl/page/page_ftl.h"
#include "model/sim/random.h"
#include "tests/model/args.h"
#include "tests/model/sim_harness.h"

namespace ssd {
namespace fault_test {

// Serves every read of LPN l from LPN l+1's page (the report's D6 fault).
class MisreadingFtl : public ftl::PageFtl {
 public:
  using PageFtl::PageFtl;
  void read(Lpn lpn, ftl::FtlWork& work) override { PageFtl::read(Lpn((lpn.v + 1) % user_pages()), work); }
};

// Fails the 500th write with a firmware error.
class FailingFtl : public ftl::PageFtl {
 public:
  using PageFtl::PageFtl;
  void write(Lpn lpn, uint64_t version, ftl::FtlWork& work) override {
    if (++writes_ == 500) throw std::logic_error("injected firmware fault at write 500");
    PageFtl::write(lpn, version, work);
  }

 private:
  uint64_t writes_ = 0;
};

const ftl::FtlRegistration misreading("test-misread", "test: reads the neighbouring LPN",
                                      [](const ftl::FtlParams& p, FlashMedia& m) {
                                        return std::make_unique<MisreadingFtl>(p, m);
                                      });
const ftl::FtlRegistration failing("test-fail", "test: throws at the 500th write",
                                   [](const ftl::FtlParams& p, FlashMedia& m) {
                                     return std::make_unique<FailingFtl>(p, m);
                                   });

using ssdtest::with;

const std::vector<std::string> kDrive = {"--nand.channels=2",        "--nand.dies_per_channel=1",
                                         "--nand.blocks_per_plane=64", "--nand.pages_per_block=32",
                                         "--workload.number_ios=20000", "--workload.rw=randrw"};

TEST(ContentCheck, CatchesAReadServedFromTheWrongPage) {
  try {
    ssdtest::simulate(with(kDrive, {"--ftl.name=test-misread", "--check.content=true"}));
    FAIL() << "the misreading FTL went unnoticed";
  } catch (const ContentMismatch& e) {
    // The message names the LPN, what was expected and what was found.
    EXPECT_NE(std::string(e.what()).find("content check: read of LPN "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(", found LPN "), std::string::npos) << e.what();
  }
}

TEST(ContentCheck, OffMeansNoCheck) {
  // The same fault without the check runs to the end: the check is what finds it.
  const auto j = ssdtest::simulate(with(kDrive, {"--ftl.name=test-misread", "--check.content=false"}));
  EXPECT_EQ(j["read"]["total_ios"].get<uint64_t>() + j["write"]["total_ios"].get<uint64_t>(), 20000u);
}

TEST(ContentCheck, PassesThroughGcCacheTrimAndPartialPages) {
  // A used drive at small spare (GC in every write), a write cache, and
  // unaligned 6 KiB IOs (read-modify-write and multi-page reads).
  const auto j = ssdtest::simulate(with(kDrive, {"--check.content=true", "--precondition=used", "--ftl.op=0.1",
                                                 "--dram.write_cache=64k", "--workload.bs=6k"}));
  EXPECT_GT(j["device"]["gc_runs"].get<uint64_t>(), 100u);
  EXPECT_GT(j["device"]["dram"]["write_cache_read_hits"].get<uint64_t>(), 0u);
  EXPECT_GE(j["device"]["content_check"]["pages_checked"].get<uint64_t>(), j["read"]["total_ios"].get<uint64_t>() * 2);
}

TEST(ContentCheck, ShadowRejectsStaleVersionsAndTrimmedData) {
  ContentShadow s(8, 4096);
  s.wrote(0, 8192, s.next_tag());        // LPNs 0, 1: tag 1
  s.wrote(4096, 4096, s.next_tag());     // LPN 1: tag 2
  s.trimmed(2048, 4096 + 2048);          // only LPN 1 is whole: unmapped
  EXPECT_NO_THROW(s.check_read(0, 4096, {{0, 1}}));
  EXPECT_NO_THROW(s.check_read(4096, 4096, {{}}));
  EXPECT_THROW(s.check_read(4096, 4096, {{1, 2}}), ContentMismatch);  // trimmed page returned data
  EXPECT_THROW(s.check_read(0, 4096, {{0, 0}}), ContentMismatch);     // older version
  EXPECT_THROW(s.check_read(0, 4096, {{1, 1}}), ContentMismatch);     // another LPN's page
  EXPECT_THROW(s.check_read(0, 8192, {{0, 1}}), ContentMismatch);     // a page missing
}

TEST(TimedPhase, AFirmwareExceptionStopsTheRunWithItsMessage) {
  // D2: before, unwinding the NCQ slot freed its stack extension (abort).
  try {
    ssdtest::simulate(with(kDrive, {"--ftl.name=test-fail", "--precondition=none", "--workload.rw=randwrite"}));
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "injected firmware fault at write 500");
  }
}

// D1: at the smallest spare the option check accepts (gc_threshold + 2
// blocks per die), with any threshold, random overwrites and trims on a
// random geometry never leave the FTL without a free block, and the
// mapping stays consistent.
TEST(PageFtlReserve, NeverRunsDryAtTheMinimumSpare) {
  Random rng(7);
  for (int run = 0; run < 60; ++run) {
    FlashGeometry g;
    g.channels = 1 + uint32_t(rng.below(4));
    g.dies_per_channel = 1 + uint32_t(rng.below(4));
    g.planes_per_die = 1 + uint32_t(rng.below(2));
    g.blocks_per_plane = 8 + uint32_t(rng.below(40));
    g.pages_per_block = 4 + uint32_t(rng.below(60));
    ftl::FtlParams p;
    p.geometry = g;
    p.gc_threshold = 1 + uint32_t(rng.below(3));
    // The smallest op whose spare still holds gc_threshold + 2 blocks per die.
    const uint32_t bpd = g.blocks_per_die();
    if (bpd < p.gc_threshold + 4) continue;
    const uint32_t user_blocks = bpd - p.gc_threshold - 2;
    p.over_provisioning = double(bpd) / double(user_blocks) - 1.0 + 1e-9;
    FlashMedia media(g, true);
    std::unique_ptr<ftl::Ftl> f;
    try {
      f = ftl::FtlRegistry::instance().create("page", p, media);
    } catch (const std::invalid_argument&) {
      continue;  // rounding left one block short: the option check refuses it too
    }
    SCOPED_TRACE("run " + std::to_string(run) + ": " + std::to_string(g.dies()) + " dies x " + std::to_string(bpd) +
                 " blocks x " + std::to_string(g.pages_per_block) + " pages, threshold " +
                 std::to_string(p.gc_threshold));
    ftl::FtlWork w;
    w.record_ops = false;
    const uint64_t n = f->user_pages();
    uint64_t version = 0;
    for (uint64_t l = 0; l < n; ++l) w.clear(), f->write(Lpn(uint32_t(l)), ++version, w);
    for (uint64_t i = 0; i < 8 * n; ++i) {
      const Lpn l(uint32_t(rng.below(n)));
      w.clear();
      if (rng.below(20) == 0) f->trim(l, w);
      else ASSERT_NO_THROW(f->write(l, ++version, w)) << "write " << i;
    }
    ASSERT_NO_THROW(f->check_consistency());
    EXPECT_GT(f->stats().gc_runs, 0u);
  }
}

}  // namespace fault_test

}  // namespace ssd
