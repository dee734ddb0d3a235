// The page FTL's policies (ftl.gc.*, ftl.wl.*): write amplification of each
// GC victim policy against an independent simulation written here, idle-time
// GC timed exactly, wear levelling on a skewed workload, hot/cold separation,
// and the shadow map through every policy with wear levelling on.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "model/controller/controller.h"
#include "model/ftl/ftl.h"
#include "model/host/io_source.h"
#include "model/sim/random.h"
#include "tests/model/ftl/reference_gc.h"
#include "tests/model/timed_source.h"
#include "tests/model/timing_drive.h"

namespace ssd {
namespace page_policy_test {

using namespace ssdtest;

// The page FTL on a fresh media, with FtlParams exactly as the simulator
// fills them from these options.
struct Drive {
  explicit Drive(std::vector<std::string> args, bool track = false)
      : opts(parse(std::move(args))), media(opts.config().nand.geometry, track),
        ftl(ftl::FtlRegistry::instance().create("page", ftl_params(opts.config()), media)) {}
  double stat(const std::string& name) const {
    for (const ftl::FtlStat& s : ftl->extra_stats())
      if (s.name == name) return s.value;
    ADD_FAILURE() << "no statistic " << name;
    return -1;
  }
  Options opts;
  FlashMedia media;
  std::unique_ptr<ftl::Ftl> ftl;
};

std::vector<std::string> one_die(uint32_t blocks, uint32_t pages, double op, std::vector<std::string> extra) {
  std::vector<std::string> a{"--nand.channels=1", "--nand.dies_per_channel=1", "--nand.planes_per_die=1",
                             "--nand.blocks_per_plane=" + std::to_string(blocks),
                             "--nand.pages_per_block=" + std::to_string(pages), "--ftl.op=" + std::to_string(op),
                             "--dram.size=64m"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// ---------------------------------------------------------------------------
using reftest::Ref;
using reftest::reference_wa;

// The drive: 512 blocks x 64 pages (one die), uniform random 4 KiB
// writes after a fill and 4 drive-writes of warm-up, measured over 4 more.
constexpr uint32_t kBlocks = 512, kPages = 64;

double plugin_wa(const std::string& policy, double op, std::vector<std::string> extra = {}) {
  extra.push_back("--ftl.gc.policy=" + policy);
  Drive d(one_die(kBlocks, kPages, op, extra));
  ftl::FtlWork w;
  w.record_ops = false;
  const uint64_t n = d.ftl->user_pages();
  for (uint64_t l = 0; l < n; ++l) d.ftl->write(Lpn(uint32_t(l)), 0, w);
  Random rng(11);
  for (uint64_t i = 0; i < 4 * n; ++i) d.ftl->write(Lpn(uint32_t(rng.below(n))), 0, w);
  d.ftl->reset_stats();
  for (uint64_t i = 0; i < 4 * n; ++i) d.ftl->write(Lpn(uint32_t(rng.below(n))), 0, w);
  d.ftl->check_consistency();
  // Victims chosen = victims collected, but for one in progress at either
  // end of the measured phase.
  EXPECT_NEAR(d.stat("gc_victims"), double(d.ftl->stats().gc_runs), 1.0);
  return d.ftl->stats().write_amplification();
}

double reference(Ref policy, double op) {
  const uint64_t user = uint64_t(double(kBlocks * kPages) / (1.0 + op));  // as user_pages_for
  return reference_wa(policy, kBlocks, kPages, user, 4 * user, 4 * user, 12);
}

class PolicyWa : public testing::TestWithParam<double> {};

TEST_P(PolicyWa, GreedyFifoAndRandomMatchTheReferenceWithinTenPercent) {
  const double op = GetParam();
  const std::vector<std::pair<std::string, Ref>> cases{
      {"greedy", Ref::Greedy}, {"fifo", Ref::Fifo}, {"random", Ref::Random}};
  for (const auto& [name, ref_policy] : cases) {
    const double wa = plugin_wa(name, op), ref = reference(ref_policy, op);
    RecordProperty(name + "_wa", std::to_string(wa));
    RecordProperty(name + "_reference", std::to_string(ref));
    std::printf("op %.2f %-8s WA %.3f, reference %.3f\n", op, name.c_str(), wa, ref);
    EXPECT_NEAR(wa, ref, 0.10 * ref) << name << " at op " << op;
    EXPECT_GT(wa, 1.5) << name;  // GC really moved data
  }
  // The reference itself against the figures for this drive
  // (greedy 7.4 / 2.6, fifo 8.3 / 2.7 at 7 % / 25 % spare).
  EXPECT_NEAR(reference(Ref::Greedy, op), op < 0.1 ? 7.4 : 2.6, op < 0.1 ? 0.74 : 0.26);
  EXPECT_NEAR(reference(Ref::Fifo, op), op < 0.1 ? 8.3 : 2.7, op < 0.1 ? 0.83 : 0.27);
}

// Cost-benefit and d-choice favour emptier blocks less strictly than greedy
// (which is optimal for uniform writes) but more than fifo and random.
TEST_P(PolicyWa, CostBenefitAndDChoiceLieBetweenGreedyAndFifoOrRandom) {
  const double op = GetParam();
  const double greedy = plugin_wa("greedy", op), fifo = plugin_wa("fifo", op), random = plugin_wa("random", op);
  const double worst = std::max(fifo, random);
  for (const auto& [name, extra] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"cost-benefit", {}}, {"d-choice", {"--ftl.gc.d=2"}}, {"d-choice", {"--ftl.gc.d=8"}}}) {
    const double wa = plugin_wa(name, op, extra);
    std::printf("op %.2f %-12s %s WA %.3f (greedy %.3f, fifo %.3f, random %.3f)\n", op, name.c_str(),
                extra.empty() ? "" : extra[0].c_str(), wa, greedy, fifo, random);
    RecordProperty(name + (extra.empty() ? "" : extra[0].substr(9)) + "_wa", std::to_string(wa));
    EXPECT_GE(wa, greedy * 0.99) << name;  // 1 %: the run-to-run noise of one random workload
    EXPECT_LE(wa, worst * 1.01) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(SpareArea, PolicyWa, testing::Values(0.07, 0.25));

// ---------------------------------------------------------------------------
// Idle-time GC, in the simulator: exact on an idle drive (tests/model/timing_drive.h).

using Timed = ssdtest::TimedRequests;  // requests at fixed arrival times (open loop)

HostRequest at(ssdtlm::HostOp op, uint64_t lpn, uint64_t ps) {
  HostRequest r;
  r.op = op, r.offset = lpn * 4096, r.bytes = 4096, r.timed = true;
  r.arrival = sc_time(double(ps), sc_core::SC_PS);
  return r;
}

// A 4 KiB write on an idle die, with no GC: the fresh drive's speed.
const uint64_t kWrite = kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kLookup + kUpdate + dram(8) + kFlashOp +
                        ps_xfer(4096, kChannel) + kTprog + kComplete;
const uint64_t kIdle = 100000 * kNs;

TEST(IdleGc, ReadDuringBackgroundGcWaitsForTheOpInFlightOnly) {
  // One die, 4-page blocks. Writes of LPN 0, 0, 0, 1 fill block A; the fifth
  // (LPN 0 again) opens block B and closes A with one valid page (LPN 1). The
  // host is then quiet: the background slice collects A (the die has fewer
  // free blocks than bg_threshold): read A.3, program it into a new GC
  // block, erase A, issued one at a time.
  const Options opts = parse(drive({"--nand.channels=1", "--nand.dies_per_channel=1", "--nand.pages_per_block=4",
                                    "--precondition=none", "--ftl.idle_after=100us", "--ftl.gc.bg_threshold=64",
                                    "--cpu.cycles.gc_victim=500", "--cpu.cycles.gc_page=300"}));
  Simulation sim(opts.config());
  std::vector<HostRequest> reqs;
  const uint64_t lpns[] = {0, 0, 0, 1, 0};
  for (uint64_t i = 0; i < 5; ++i) reqs.push_back(at(ssdtlm::HostOp::Write, lpns[i], 2 * i * kWrite));
  // The slice starts idle_after past the last write; the firmware charges the
  // victim and the page's bookkeeping (800 cycles, one map entry) and builds
  // the 3 NAND commands; the GC read, then the program, each on the die.
  const uint64_t slice = 9 * kWrite + kIdle + ps_cycles(800, kClock) + dram(4) + 3 * kFlashOp;
  const uint64_t gc_read_done = slice + kTr + ps_xfer(4096, kChannel);
  const uint64_t gc_prog_done = gc_read_done + ps_xfer(4096, kChannel) + kTprog;
  // A host read arrives halfway through the GC program: it waits for that
  // program, not for the erase that follows it in the slice.
  const uint64_t read_at = gc_read_done + kTprog / 2;
  reqs.push_back(at(ssdtlm::HostOp::Read, 0, read_at));
  Timed src(reqs);
  sim.run(&src, 1);
  const auto r = sim.report();
  const uint64_t read_done =
      gc_prog_done + kTr + ps_xfer(4096, kChannel) + dram(4096) + std::max(kComplete, ps_xfer(4096, kSata));
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), kWrite / kNs);
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(), kWrite / kNs);  // no GC before the idle time
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), (read_done - read_at) / kNs);
  EXPECT_EQ(r["device"]["background_slices"], 1);
  const auto& st = r["device"]["ftl"]["stats"];
  EXPECT_EQ(st["background_gc_runs"]["value"], 1.0);
  EXPECT_EQ(st["background_gc_pages_moved"]["value"], 1.0);
  EXPECT_EQ(r["device"]["channels"][0]["gc_erases"], 1);
}

// The drive preconditioned to steady state (every die at the GC watermark),
// then quiet for long, then a burst of `kBurst` writes at QD1, each arriving
// 1 us after the previous one completes (shorter than idle_after: no
// background work within the burst).
constexpr uint32_t kBgThreshold = 8, kBurst = (kBgThreshold - 2 - 1) * 64;  // gc_threshold 2, 64-page blocks

// With `idle_after` zero the firmware has no idle-time work (and
// ftl.gc.bg_threshold, which would then do nothing, is refused).
nlohmann::json burst_after_idle(const std::string& idle_after) {
  std::vector<std::string> a{"--nand.channels=1", "--nand.dies_per_channel=1", "--precondition=used",
                             "--ftl.gc_threshold=2"};
  if (idle_after != "0")
    a.insert(a.end(), {"--ftl.idle_after=" + idle_after, "--ftl.gc.bg_threshold=" + std::to_string(kBgThreshold)});
  const Options opts = parse(drive(a));
  Simulation sim(opts.config());
  std::vector<HostRequest> reqs;
  const uint64_t start = 20000000000000ull;  // 20 s of quiet
  for (uint64_t i = 0; i < kBurst; ++i)
    reqs.push_back(at(ssdtlm::HostOp::Write, (i * 37) % 3000, start + i * (kWrite + 1000 * kNs)));
  // Then 20 s of quiet again, ended by a FLUSH CACHE (no flash work): the
  // run ends with the host's last completion, and idle-time work needs the
  // host still there (docs/report.md).
  reqs.push_back(at(ssdtlm::HostOp::Flush, 0, 2 * start + kBurst * (kWrite + 1000 * kNs)));
  reqs.back().bytes = 0;
  Timed src(reqs);
  sim.run(&src, 1);
  return sim.report();
}

TEST(IdleGc, FreeBlocksRecoverAndTheNextBurstRunsAtFreshSpeed) {
  const auto r = burst_after_idle("100us");
  const auto& st = r["device"]["ftl"]["stats"];
  // Background GC brought the die to bg_threshold free blocks: the burst
  // then fits in them (kBurst pages leave more than gc_threshold free), so
  // every write runs as on a fresh drive, no GC in its way.
  EXPECT_GT(st["background_gc_runs"]["value"].get<double>(), 0);
  EXPECT_EQ(r["write"]["total_ios"], kBurst);
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(), kWrite / kNs);
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), kWrite / kNs);
  // Every victim was collected in idle time (before or after the burst).
  EXPECT_EQ(r["device"]["gc_runs"].get<double>(), st["background_gc_runs"]["value"].get<double>());
  // After the burst the host is quiet again: the count recovers once more,
  // to the watermark exactly (a victim frees at most one block net, and the
  // slices stop once the die holds bg_threshold free blocks).
  EXPECT_EQ(st["free_blocks_min_die"]["value"].get<double>(), kBgThreshold);
}

TEST(IdleGc, WithoutIdleTimeTheBurstPaysForForegroundGc) {
  const auto r = burst_after_idle("0");
  const auto& st = r["device"]["ftl"]["stats"];
  EXPECT_EQ(st["background_gc_runs"]["value"].get<double>(), 0);
  EXPECT_LE(st["free_blocks_min_die"]["value"].get<double>(), 3);  // at the watermark
  EXPECT_GT(r["write"]["lat_ns"]["max"].get<uint64_t>(), kWrite / kNs);
  EXPECT_GT(r["device"]["gc_runs"].get<uint64_t>(), 0u);
}

// ---------------------------------------------------------------------------
// Wear levelling: 90 % of the writes go to 10 % of the LPNs. Without static
// WL the blocks holding the cold 90 % are hardly ever erased while the rest
// cycle; with it the die's spread stays within the threshold plus a little.
uint32_t erase_spread(const std::vector<std::string>& wl_options, double* moves = nullptr) {
  Drive d(one_die(64, 16, 0.25, wl_options));
  ftl::FtlWork w;
  w.record_ops = false;
  const uint64_t n = d.ftl->user_pages(), hot = n / 10;
  for (uint64_t l = 0; l < n; ++l) d.ftl->write(Lpn(uint32_t(l)), 0, w);
  Random rng(5);
  for (uint64_t i = 0; i < 300 * n; ++i) {
    const uint64_t l = rng.percent() < 90 ? rng.below(hot) : hot + rng.below(n - hot);
    d.ftl->write(Lpn(uint32_t(l)), 0, w);
  }
  d.ftl->check_consistency();
  uint32_t lo = UINT32_MAX, hi = 0;
  for (uint32_t b = 0; b < 64; ++b) {
    lo = std::min(lo, d.media.erase_count(BlockId(b)));
    hi = std::max(hi, d.media.erase_count(BlockId(b)));
  }
  if (moves) *moves = d.stat("wl_moves");
  std::printf("%s: erase counts %u..%u\n", wl_options.empty() ? "no WL" : wl_options[0].c_str(), lo, hi);
  return hi - lo;
}

constexpr uint32_t kWlThreshold = 20;

TEST(WearLeveling, StaticKeepsTheEraseSpreadWithinTheThreshold) {
  double moves = 0;
  const uint32_t with = erase_spread({"--ftl.wl.threshold=" + std::to_string(kWlThreshold)}, &moves);
  const uint32_t without = erase_spread({});
  // A move follows the erase that revealed the spread at the next host write
  // and costs the moved block one erase of its own: the spread may pass the
  // threshold by those two.
  EXPECT_LE(with, kWlThreshold + 2);
  EXPECT_GT(without, 3 * kWlThreshold);
  EXPECT_GT(moves, 0);
}

TEST(WearLeveling, DynamicAloneLeavesColdBlocksBehind) {
  // Dynamic WL evens the blocks that circulate, not the ones cold data pins.
  EXPECT_GT(erase_spread({"--ftl.wl.dynamic=true"}), kWlThreshold + 2);
  EXPECT_LE(erase_spread({"--ftl.wl.dynamic=true", "--ftl.wl.threshold=" + std::to_string(kWlThreshold)}),
            kWlThreshold + 2);
}

// ---------------------------------------------------------------------------
// Hot/cold separation: GC copies go to their own open block, or (off) into
// the host's, next to host data. Each block's pages are classed when it is
// erased: host data only, GC copies only, or both.
void classify_blocks(bool separate, size_t& mixed, size_t& pure) {
  Drive d(one_die(64, 32, 0.10, {std::string("--ftl.gc.separate=") + (separate ? "true" : "false")}));
  const FlashGeometry& g = d.media.geometry();
  std::vector<uint8_t> held(g.blocks(), 0);  // bit 0: host data, bit 1: GC copies
  ftl::FtlWork w;
  const uint64_t n = d.ftl->user_pages();
  Random rng(9);
  mixed = pure = 0;
  for (uint64_t i = 0; i < 20 * n; ++i) {
    w.clear();
    d.ftl->write(Lpn(uint32_t(i < n ? i : rng.below(n))), 2, w);
    for (const ftl::FlashOp& op : w.ops) {
      uint8_t& h = held[g.block_of(op.ppn).v];
      if (op.kind == ftl::FlashOp::Kind::Program) h |= op.gc ? 2 : 1;
      if (op.kind == ftl::FlashOp::Kind::Erase) ++(h == 3 ? mixed : pure), h = 0;
    }
  }
  d.ftl->check_consistency();
}

TEST(HotColdSeparation, GcCopiesGoToTheirOwnBlockOrTheHosts) {
  size_t mixed = 0, pure = 0;
  classify_blocks(true, mixed, pure);
  EXPECT_EQ(mixed, 0u);
  EXPECT_GT(pure, 1000u);
  classify_blocks(false, mixed, pure);
  // Shared: a block holds GC copies alone only if whole victims filled it.
  EXPECT_GT(mixed, 1000u);
  EXPECT_GT(mixed, 10 * pure);
}

// ---------------------------------------------------------------------------
// Options.
TEST(PagePolicyOptions, ShownInHelpAndChecked) {
  const std::string help = Options::help_text();
  EXPECT_NE(help.find("--ftl.gc.policy <greedy|cost-benefit|fifo|random|d-choice>"), std::string::npos);
  for (const char* k : {"--ftl.gc.d <count>", "--ftl.gc.bg_threshold <count>", "--ftl.gc.separate <bool>",
                        "--ftl.wl.dynamic <bool>", "--ftl.wl.threshold <count>"})
    EXPECT_NE(help.find(k), std::string::npos) << k;
  EXPECT_THROW(parse({"--ftl.gc.policy=lru"}), OptionError);
  EXPECT_THROW(parse({"--ftl.gc.bg_threshold=4"}), OptionError);  // no idle-time work: it would do nothing
  EXPECT_NO_THROW(parse({"--ftl.gc.bg_threshold=4", "--ftl.idle_after=1ms"}));
  try {
    Drive d(one_die(64, 16, 0.25, {"--ftl.gc.policy=d-choice", "--ftl.gc.d=0"}));
    FAIL() << "d = 0 accepted";
  } catch (const ftl::FtlConfigError& e) {
    EXPECT_EQ(e.key, "ftl.gc.d");
  }
  try {
    Drive d(one_die(64, 16, 0.25, {"--ftl.idle_after=1ms", "--ftl.gc.bg_threshold=65"}));
    FAIL() << "a watermark above the die's blocks accepted";
  } catch (const ftl::FtlConfigError& e) {
    EXPECT_EQ(e.key, "ftl.gc.bg_threshold");
  }
}

TEST(PagePolicyOptions, RandomPoliciesFollowTheSeed) {
  auto run = [](const std::string& seed) {
    Drive d(one_die(64, 16, 0.10, {"--ftl.gc.policy=random", "--seed=" + seed}));
    ftl::FtlWork w;
    w.record_ops = false;
    Random rng(3);
    const uint64_t n = d.ftl->user_pages();
    for (uint64_t i = 0; i < 20 * n; ++i) d.ftl->write(Lpn(uint32_t(rng.below(n))), 0, w);
    return d.ftl->stats().gc_pages_moved;
  };
  EXPECT_EQ(run("7"), run("7"));
  EXPECT_NE(run("7"), run("8"));
}

// ---------------------------------------------------------------------------
// The shadow map (as tests/model/ftl_shadow_test.cpp runs it on the defaults)
// through every victim policy, with and without hot/cold separation, with
// dynamic and static wear levelling on and idle-time slices in between.
class EveryPolicy : public testing::TestWithParam<std::string> {};

TEST_P(EveryPolicy, ShadowMapHoldsWithWearLevellingAndIdleGc) {
  Random rng(4321);
  uint64_t total_ops = 0, reads = 0;
  double wl_moves = 0, bg_runs = 0, victims = 0;
  for (int run = 0; run < 2; ++run) {
    const uint32_t blocks = 48 + uint32_t(rng.below(48)), pages = 8u << rng.below(3);
    const std::vector<std::string> args{
        "--nand.channels=" + std::to_string(1 + rng.below(2)), "--nand.dies_per_channel=" + std::to_string(1 + rng.below(2)),
        "--nand.planes_per_die=1", "--nand.blocks_per_plane=" + std::to_string(blocks),
        "--nand.pages_per_block=" + std::to_string(pages), "--ftl.op=0.15", "--dram.size=64m",
        "--ftl.gc.policy=" + GetParam(), // ftl.gc.d only with d-choice (refused with the others)
        GetParam() == "d-choice" ? std::string("--ftl.gc.d=3") : "--ftl.gc.policy=" + GetParam(), std::string("--ftl.gc.separate=") + (run ? "false" : "true"),
        "--ftl.wl.dynamic=true", "--ftl.wl.threshold=3", "--ftl.idle_after=1ms", "--ftl.gc.bg_threshold=5", "--seed=" + std::to_string(run + 1)};
    SCOPED_TRACE("run " + std::to_string(run));
    Drive d(args, /*track=*/true);
    const uint64_t n = d.ftl->user_pages();
    std::vector<uint64_t> shadow(n, 0);
    ftl::FtlWork w;
    uint64_t version = 0;
    const int ops = 60000;
    for (int i = 0; i < ops;) {
      const uint32_t dice = rng.percent();
      const uint64_t len = 1 + rng.below(8);
      // Skewed: half the commands within the first tenth (hot data, for WL).
      const uint64_t span = rng.below(2) ? n / 10 : n;
      const uint64_t first = rng.below(span - len + 1);
      for (uint64_t l = first; l < first + len; ++l, ++i) {
        w.clear();
        if (dice < 60) {
          d.ftl->write(Lpn(uint32_t(l)), ++version, w);
          shadow[l] = version;
        } else if (dice < 70) {
          d.ftl->trim(Lpn(uint32_t(l)), w);
          shadow[l] = 0;
        } else {
          d.ftl->read(Lpn(uint32_t(l)), w);
          PageContent c;
          ASSERT_EQ(w.returns(d.media, c), shadow[l] != 0) << "LPN " << l << " op " << i;
          if (shadow[l] != 0) {
            ASSERT_EQ(c.lpn, l);
            ASSERT_EQ(c.version, shadow[l]) << "LPN " << l << " op " << i;
            ++reads;
          }
        }
      }
      if (rng.below(100) == 0)
        for (int s = 0; s < 8; ++s) {
          w.clear();
          if (!d.ftl->background(w)) break;
        }
      if (rng.below(5000) == 0) {
        ASSERT_NO_THROW(d.ftl->check_consistency()) << "op " << i;
      }
    }
    total_ops += ops;
    ASSERT_NO_THROW(d.ftl->check_consistency());
    for (uint64_t l = 0; l < n; ++l) {
      w.clear();
      d.ftl->read(Lpn(uint32_t(l)), w);
      PageContent c;
      ASSERT_EQ(w.returns(d.media, c), shadow[l] != 0) << "LPN " << l;
      if (shadow[l] != 0) {
        ASSERT_EQ(c.version, shadow[l]) << "LPN " << l;
      }
    }
    wl_moves += d.stat("wl_moves");
    bg_runs += d.stat("background_gc_runs");
    victims += d.stat("gc_victims");
  }
  EXPECT_GE(total_ops, 100000u);
  EXPECT_GT(reads, 10000u);
  EXPECT_GT(victims, 100);  // every feature really ran
  EXPECT_GT(wl_moves, 0);
  EXPECT_GT(bg_runs, 0);
}

INSTANTIATE_TEST_SUITE_P(Page, EveryPolicy, testing::Values("greedy", "cost-benefit", "fifo", "random", "d-choice"),
                         [](const testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           n.erase(std::remove(n.begin(), n.end(), '-'), n.end());
                           return n;
                         });

}  // namespace page_policy_test

}  // namespace ssd
