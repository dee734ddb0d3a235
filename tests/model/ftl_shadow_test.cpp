// The shadow map, for every FTL plug-in registered in this binary (but the
// test-only ones): a million random writes, trims and reads, in command runs
// of 1-8 pages (sometimes continuing the previous one), with idle-time work
// in between, on random geometries. Every read must return the version last
// written (or nothing after a TRIM or before any write), every flash rule
// holds (the media refuses a program of a used page or out of order), and
// the FTL's own consistency check passes after every run. An FTL added to
// the registry is covered without touching this file.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "model/controller/controller.h"
#include "model/ftl/ftl.h"
#include "model/sim/random.h"
#include "tests/model/sim_harness.h"

namespace ssd {
namespace ftl_shadow_test {

std::vector<std::string> ftl_names() {
  std::vector<std::string> names;
  for (const auto& [name, e] : ftl::FtlRegistry::instance().list())
    if (name.rfind("test-", 0) != 0) names.push_back(name);
  return names;
}

class EveryFtl : public testing::TestWithParam<std::string> {};

TEST_P(EveryFtl, ShadowMapHoldsThroughGcMergesTrimAndIdleWork) {
  Random rng(1234);
  uint64_t total_reads = 0, total_ops = 0;
  for (int run = 0; run < 4; ++run) {
    // A small random geometry with enough spare for every FTL's defaults.
    const std::string channels = std::to_string(1 + rng.below(2)), dies = std::to_string(1 + rng.below(2));
    const std::string blocks = std::to_string(48 + rng.below(48)), pages = std::to_string(8 << rng.below(3));
    const ssd::Options opts = ssdtest::parse({"--ftl.name=" + GetParam(), "--nand.channels=" + channels,
                                              "--nand.dies_per_channel=" + dies, "--nand.planes_per_die=1",
                                              "--nand.blocks_per_plane=" + blocks, "--nand.pages_per_block=" + pages,
                                              "--ftl.op=0.15", "--dram.size=64m"});
    const SimConfig& cfg = opts.config();
    SCOPED_TRACE("run " + std::to_string(run) + ": " + channels + " ch x " + dies + " dies x " + blocks +
                 " blocks x " + pages + " pages");
    FlashMedia media(cfg.nand.geometry, /*track_content=*/true);
    auto f = ftl::FtlRegistry::instance().create(cfg.ftl_name, ftl_params(cfg), media);
    const uint64_t n = f->user_pages();
    std::vector<uint64_t> shadow(n, 0);  // 0: never written or trimmed
    ftl::FtlWork w;
    uint64_t version = 0, next = 0;
    const int ops = 250000;
    for (int i = 0; i < ops;) {
      const uint32_t dice = rng.percent();
      const uint64_t len = 1 + rng.below(8);
      const bool seq = rng.below(3) == 0 && next + len <= n;
      const uint64_t first = seq ? next : rng.below(n - len + 1);
      const ftl::HostRun::Op op = dice < 55 ? ftl::HostRun::Op::Write : dice < 65 ? ftl::HostRun::Op::Trim
                                                                                   : ftl::HostRun::Op::Read;
      f->begin_command({op, first, len, seq});
      next = first + len;
      for (uint64_t l = first; l < first + len; ++l, ++i) {
        w.clear();
        if (op == ftl::HostRun::Op::Write) {
          f->write(Lpn(uint32_t(l)), ++version, w);
          shadow[l] = version;
        } else if (op == ftl::HostRun::Op::Trim) {
          f->trim(Lpn(uint32_t(l)), w);
          shadow[l] = 0;
        } else {
          f->read(Lpn(uint32_t(l)), w);
          PageContent c;
          const bool found = w.returns(media, c);
          ASSERT_EQ(found, shadow[l] != 0) << "LPN " << l << " op " << i;
          if (found) {
            ASSERT_EQ(c.lpn, l) << "op " << i;
            ASSERT_EQ(c.version, shadow[l]) << "LPN " << l << " op " << i;
            ++total_reads;
          }
        }
      }
      if (rng.below(200) == 0)  // an idle gap: a few slices of background work
        for (int s = 0; s < 8; ++s) {
          w.clear();
          if (!f->background(w)) break;
        }
    }
    total_ops += ops;
    ASSERT_NO_THROW(f->check_consistency());
    // Every LPN still reads back its newest version.
    for (uint64_t l = 0; l < n; ++l) {
      w.clear();
      f->read(Lpn(uint32_t(l)), w);
      PageContent c;
      ASSERT_EQ(w.returns(media, c), shadow[l] != 0) << "LPN " << l;
      if (shadow[l]) {
        ASSERT_EQ(c.version, shadow[l]) << "LPN " << l;
      }
    }
  }
  EXPECT_GE(total_ops, 1000000u);
  EXPECT_GT(total_reads, 100000u);
}

INSTANTIATE_TEST_SUITE_P(Registered, EveryFtl, testing::ValuesIn(ftl_names()),
                         [](const testing::TestParamInfo<std::string>& i) {
                           std::string id = i.param;  // GoogleTest names: letters, digits, '_'
                           for (char& c : id)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return id;
                         });

}  // namespace ftl_shadow_test

}  // namespace ssd
