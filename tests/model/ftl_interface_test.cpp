// The FTL plug-in interface beyond per-page calls, with a test-only plug-in:
// declared options (parsed, refused when they belong to another FTL), the
// FTL's own statistics in the report, the command runs it is told about, and
// idle-time background work timed exactly: a host read that arrives during a
// background erase on its die waits for that erase only.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "model/controller/controller.h"
#include "model/ftl/page/page_ftl.h"
#include "model/host/io_source.h"
#include "model/sim/options.h"
#include "tests/model/timed_source.h"
#include "tests/model/timing_drive.h"

namespace ssd {
namespace ftl_interface_test {

using namespace ssdtest;

std::vector<ftl::HostRun> g_runs;  // what begin_command saw (one simulation per process)

// A page FTL that, when idle, erases a spare block of die 0 (no functional
// change: a timing probe) `ftl.test.slices` times.
class IdleProbeFtl : public ftl::PageFtl {
 public:
  IdleProbeFtl(const ftl::FtlParams& p, FlashMedia& m)
      : PageFtl(p, m), left_(uint64_t(p.options.get("ftl.test.slices"))), geo_(p.geometry) {}
  void begin_command(const ftl::HostRun& run) override { g_runs.push_back(run); }
  bool background(ftl::FtlWork& work) override {
    if (left_ == 0) return false;
    --left_, ++erases_;
    work.add({ftl::FlashOp::Kind::Erase, geo_.first_page(geo_.block(DieId(0), geo_.blocks_per_die() - 1)), true});
    return true;
  }
  std::vector<ftl::FtlStat> extra_stats() const override {
    return {{"background_erases", double(erases_), "count", "erases issued in idle time"}};
  }

 private:
  uint64_t left_, erases_ = 0;
  FlashGeometry geo_;
};

const ftl::FtlRegistration probe("test-idle", "test: erases a spare block when idle",
                                 [](const ftl::FtlParams& p, FlashMedia& m) { return std::make_unique<IdleProbeFtl>(p, m); },
                                 {{"ftl.test.slices", "3", "count", "background slices to run"}});

// Unmapping costs it one erase (a stand-in for an FTL's flash work on TRIM).
class TrimEraseFtl : public ftl::PageFtl {
 public:
  TrimEraseFtl(const ftl::FtlParams& p, FlashMedia& m) : PageFtl(p, m), geo_(p.geometry) {}
  void trim(Lpn, ftl::FtlWork& work) override {
    work.add({ftl::FlashOp::Kind::Erase, geo_.first_page(geo_.block(DieId(0), geo_.blocks_per_die() - 1)), true});
  }

 private:
  FlashGeometry geo_;
};
const ftl::FtlRegistration trim_erase("test-trimerase", "test: a TRIM costs an erase",
                                      [](const ftl::FtlParams& p, FlashMedia& m) {
                                        return std::make_unique<TrimEraseFtl>(p, m);
                                      });

using Timed = ssdtest::TimedRequests;  // requests at fixed arrival times (open loop)

HostRequest at(ssdtlm::HostOp op, uint64_t offset, uint64_t bytes, uint64_t ps) {
  HostRequest r;
  r.op = op, r.offset = offset, r.bytes = bytes, r.timed = true;
  r.arrival = sc_time(double(ps), sc_core::SC_PS);
  return r;
}

const uint64_t kWrite = kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kLookup + kUpdate + dram(8) + kFlashOp +
                        ps_xfer(4096, kChannel) + kTprog + kComplete;
const uint64_t kIdle = 100000 * kNs, kErase = 2000000 * kNs;

// The write completes at kWrite; the host is then quiet. Slice 1 issues its
// erase (one flash_op step on the core) at kWrite + idle_after; slice 2
// follows when it ends (at kE2); the read arrives in the middle of the second.
const uint64_t kE1 = kWrite + kIdle + kFlashOp + kErase, kE2 = kE1 + kFlashOp + kErase, kReadAt = kE1 + kErase / 2;

// One die with the erase-per-slice test FTL: a write at 0, a read at kReadAt,
// then `last`: the run ends with the host's last completion (no idle-time
// work starts after it), so the third slice runs only if `last` comes later.
nlohmann::json read_during_second_erase(std::vector<std::string> extra, const HostRequest& last) {
  std::vector<std::string> a{"--nand.channels=1", "--nand.dies_per_channel=1", "--precondition=none",
                             "--ftl.name=test-idle", "--ftl.idle_after=100us"};
  a.insert(a.end(), extra.begin(), extra.end());
  const Options opts = parse(drive(a));
  Simulation sim(opts.config());
  Timed src({at(ssdtlm::HostOp::Write, 0, 4096, 0), at(ssdtlm::HostOp::Read, 0, 4096, kReadAt), last});
  sim.run(&src, 1);
  return sim.report();
}

TEST(IdleWork, ReadDuringBackgroundEraseWaitsForThatEraseOnly) {
  // The third slice waits for the host to be quiet again, then runs: the
  // idle time counts from the firmware's last completion, which it posts
  // while the read data may still stream to the host (the link's part). A
  // second read arrives halfway through that slice's erase.
  const uint64_t firmware_done = kE2 + kTr + ps_xfer(4096, kChannel) + dram(4096) + kComplete;
  const uint64_t e3 = firmware_done + kIdle + kFlashOp + kErase, read2_at = e3 - kErase / 2;
  const auto r = read_during_second_erase({}, at(ssdtlm::HostOp::Read, 0, 4096, read2_at));
  const uint64_t out = kTr + ps_xfer(4096, kChannel) + dram(4096) + std::max(kComplete, ps_xfer(4096, kSata));
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), kWrite / kNs);
  EXPECT_EQ(r["read"]["lat_ns"]["max"].get<uint64_t>(), (kE2 + out - kReadAt) / kNs);
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), (e3 + out - read2_at) / kNs);
  EXPECT_EQ(r["device"]["background_slices"], 3);
  EXPECT_EQ(r["device"]["ftl"]["name"], "test-idle");
  EXPECT_EQ(r["device"]["ftl"]["stats"]["background_erases"]["value"], 3.0);
  EXPECT_EQ(r["device"]["channels"][0]["gc_erases"], 3);
}

TEST(IdleWork, NoSliceStartsAfterTheHostsLastCompletion) {
  // The host's last command is the read during the second erase: the run
  // ends with it. The test FTL has a third slice, which does not start.
  const auto r = read_during_second_erase({}, at(ssdtlm::HostOp::Read, 0, 4096, kReadAt + 1));
  EXPECT_EQ(r["device"]["background_slices"], 2);
  EXPECT_EQ(r["device"]["channels"][0]["gc_erases"], 2);
  EXPECT_EQ(r["device"]["drain_ns"].get<uint64_t>(), 0u);
}

// nand.suspend: the same read suspends the idle-time erase (nobody waits for
// its end) instead of waiting for it; the erase resumes after the read's
// data is out and ends later by the time the die was away from it.
TEST(IdleWork, ReadSuspendsTheBackgroundErase) {
  const uint64_t kSuspend = 20000 * kNs;  // nand.t_suspend's default
  // The host's last command, a FLUSH CACHE (no write cache: no flash work),
  // comes long after the third slice.
  const auto r = read_during_second_erase({"--nand.suspend=true"}, at(ssdtlm::HostOp::Flush, 0, 0, kE2 + 10 * kErase));
  // The read reaches the die mid-erase: t_suspend, tR, the page out.
  const uint64_t at_die = kReadAt + kCmd + kDecode + kLookup + dram(4) + kFlashOp;
  const uint64_t data_out = at_die + kSuspend + kTr + ps_xfer(4096, kChannel), away = data_out - at_die;
  const uint64_t read_done = data_out + dram(4096) + std::max(kComplete, ps_xfer(4096, kSata));
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), (read_done - kReadAt) / kNs);
  EXPECT_EQ(r["device"]["channels"][0]["suspends"], 1);
  // The die: the write's program, three erases and the time away (the read).
  EXPECT_EQ(r["device"]["dies"][0]["busy_ns"].get<uint64_t>(),
            (ps_xfer(4096, kChannel) + kTprog + 3 * kErase + away) / kNs);
  // The third slice ran (after the resumed erase) before the FLUSH.
  EXPECT_EQ(r["device"]["background_slices"], 3);
  EXPECT_EQ(r["device"]["drain_ns"].get<uint64_t>(), 0u);
}

TEST(Trim, FlashWorkOfAnUnmapIsTimed) {
  const Options opts = parse(drive({"--nand.channels=1", "--nand.dies_per_channel=1", "--precondition=none",
                                    "--ftl.name=test-trimerase"}));
  Simulation sim(opts.config());
  Timed src({at(ssdtlm::HostOp::Trim, 0, 4096, 0)});
  sim.run(&src, 1);
  // Command FIS, decode, issue the erase, tBERS, completion.
  EXPECT_EQ(sim.report()["trim"]["lat_ns"]["min"].get<uint64_t>(), (kCmd + kDecode + kFlashOp + kErase + kComplete) / kNs);
}

TEST(IdleWork, OffByDefault) {
  const Options opts = parse(drive({"--nand.channels=1", "--nand.dies_per_channel=1", "--precondition=none",
                                    "--ftl.name=test-idle"}));
  Simulation sim(opts.config());
  Timed src({at(ssdtlm::HostOp::Write, 0, 4096, 0), at(ssdtlm::HostOp::Read, 0, 4096, 10 * kErase)});
  sim.run(&src, 1);
  EXPECT_EQ(sim.report()["device"]["background_slices"], 0);
}

TEST(FtlInterface, CommandRunsAndContinuation) {
  const Options opts = parse(drive({"--precondition=none", "--ftl.name=test-idle"}));
  Simulation sim(opts.config());
  // Writes of 8 KiB at 0, 8 KiB (continues), 64 KiB (does not); a read at 0; a 6 KiB write at 2 KiB.
  Timed src({at(ssdtlm::HostOp::Write, 0, 8192, 0), at(ssdtlm::HostOp::Write, 8192, 8192, 1),
             at(ssdtlm::HostOp::Write, 65536, 4096, 2), at(ssdtlm::HostOp::Read, 0, 4096, 3),
             at(ssdtlm::HostOp::Write, 2048, 6144, 4)});
  sim.run(&src, 1);
  ASSERT_EQ(g_runs.size(), 5u);
  using Op = ftl::HostRun::Op;
  const std::vector<std::tuple<Op, uint64_t, uint64_t, bool>> want{
      {Op::Write, 0, 2, false}, {Op::Write, 2, 2, true}, {Op::Write, 16, 1, false}, {Op::Read, 0, 1, false},
      {Op::Write, 0, 2, false}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(g_runs[i].op, std::get<0>(want[i])) << i;
    EXPECT_EQ(g_runs[i].first_lpn, std::get<1>(want[i])) << i;
    EXPECT_EQ(g_runs[i].pages, std::get<2>(want[i])) << i;
    EXPECT_EQ(g_runs[i].continues, std::get<3>(want[i])) << i;
  }
}

TEST(FtlOptions, DeclaredOptionsAreParsedAndShownInHelp) {
  EXPECT_EQ(parse(drive({"--ftl.name=test-idle", "--ftl.test.slices=7"})).config().ftl_options.get("ftl.test.slices"), 7);
  EXPECT_NE(Options::help_text().find("--ftl.test.slices <count>"), std::string::npos);
  EXPECT_NE(Options::help_text().find("[ftl.name=test-idle]"), std::string::npos);
}

TEST(FtlOptions, AnotherFtlsOptionIsRefused) {
  try {
    parse(drive({"--ftl.name=page", "--ftl.test.slices=7"}));
    FAIL() << "accepted";
  } catch (const OptionError& e) {
    EXPECT_NE(std::string(e.what()).find("option '--ftl.test.slices': applies to ftl.name=test-idle, not 'page'"),
              std::string::npos)
        << e.what();
  }
}

// The DRAM check (Controller): an FTL that can say its mapping table's size
// from its parameters (FtlTableBytes) is not built for a DRAM too small to
// hold it; one that cannot is refused once built.
int g_sized_builds = 0;
const ftl::FtlRegistration sized(
    "test-sized", "test: a page FTL that says its table's size before it is built, counting its builds",
    [](const ftl::FtlParams& p, FlashMedia& m) {
      ++g_sized_builds;
      return std::make_unique<ftl::PageFtl>(p, m);
    },
    {}, &ftl::PageFtl::table_bytes);

// The test drive's page map: 131072 pages less a quarter spare (ftl.op=0.25),
// one 4-byte entry each.
const uint64_t kPageTable = uint64_t(131072 / 1.25) * 4;

// Building the test drive with `args` is refused naming dram.size, saying `why`.
void expect_dram_refused(std::vector<std::string> args, const std::string& why) {
  const Options opts = parse(drive(args));
  try {
    Simulation sim(opts.config());
    ADD_FAILURE() << "built";
  } catch (const ftl::FtlConfigError& e) {
    EXPECT_EQ(e.key, "dram.size");
    EXPECT_EQ(std::string(e.what()), why);
  }
}

TEST(DramCheck, TableTooBigIsRefusedBeforeTheFtlIsBuilt) {
  expect_dram_refused({"--ftl.name=test-sized", "--dram.size=256k"},
                      "262144 bytes of DRAM cannot hold the test-sized FTL's mapping table (" +
                          std::to_string(kPageTable) + " bytes)");
  EXPECT_EQ(g_sized_builds, 0);
}

TEST(DramCheck, TablePlusWriteCacheTooBigIsRefusedBeforeTheFtlIsBuilt) {
  // The table fits, not with the cache: one byte short.
  const uint64_t size = kPageTable + 131072 - 1;
  expect_dram_refused({"--ftl.name=test-sized", "--dram.size=" + std::to_string(size) + "B", "--dram.write_cache=128k"},
                      std::to_string(size) + " bytes of DRAM cannot hold the test-sized FTL's mapping table (" +
                          std::to_string(kPageTable) + " bytes) plus the write cache (131072 bytes)");
  EXPECT_EQ(g_sized_builds, 0);
}

TEST(DramCheck, ExactFitIsBuilt) {
  const Options opts = parse(
      drive({"--ftl.name=test-sized", "--dram.size=" + std::to_string(kPageTable + 131072) + "B", "--dram.write_cache=128k"}));
  Simulation sim(opts.config());
  EXPECT_EQ(g_sized_builds, 1);
  EXPECT_EQ(sim.drive().controller.ftl().map_bytes(), kPageTable);
}

TEST(DramCheck, FtlThatCannotSayIsRefusedOnceBuilt) {
  // test-trimerase registers no FtlTableBytes (the controller's extensions
  // are not yet attached when it throws: no double free under ASan).
  expect_dram_refused({"--ftl.name=test-trimerase", "--dram.size=256k"},
                      "262144 bytes of DRAM cannot hold the test-trimerase FTL's mapping table (" +
                          std::to_string(kPageTable) + " bytes)");
}

// Each built-in FTL's FtlTableBytes is what the FTL it describes says it keeps.
TEST(DramCheck, TableBytesOfEveryBuiltInFtlIsItsMapBytes) {
  const std::vector<std::vector<std::string>> cases{
      {"--ftl.name=page"},
      {"--ftl.name=dftl", "--ftl.map_cache=64k"},
      {"--ftl.name=dftl", "--ftl.map_cache=4m"},  // more than the whole table: the whole table
      {"--ftl.name=block"},
      {"--ftl.name=block", "--ftl.block.stripe=4"},
      {"--ftl.name=bast"},
      {"--ftl.name=bast", "--ftl.hybrid.interleave=true", "--ftl.log_blocks=2"},
      {"--ftl.name=fast", "--ftl.hybrid.stripe=2"}};
  for (const auto& c : cases) {
    const SimConfig cfg = parse(drive(c)).config();
    const ftl::FtlParams p = ftl_params(cfg);
    const std::optional<uint64_t> said = ftl::FtlRegistry::instance().table_bytes(cfg.ftl_name, p);
    ASSERT_TRUE(said.has_value()) << c.back();
    FlashMedia media(cfg.nand.ftl_geometry(), false);
    const auto built = ftl::FtlRegistry::instance().create(cfg.ftl_name, p, media);
    EXPECT_EQ(*said, built->map_bytes()) << c.back();
  }
  // The page FTL's, from the parameters: one entry per user page.
  EXPECT_EQ(ftl::FtlRegistry::instance().table_bytes("page", ftl_params(parse(drive({})).config())), kPageTable);
  EXPECT_FALSE(ftl::FtlRegistry::instance().table_bytes("test-trimerase", ftl_params(parse(drive({})).config())));
}

}  // namespace ftl_interface_test

}  // namespace ssd
