// controller.map_unit: the FTL maps 4 KiB units on 8 KiB flash pages. The
// controller packs two units into each flash page and programs the page
// once its second unit arrives (write coalescing); a unit's read takes tR
// and moves only its 4 KiB. Timed exactly on an idle die; without the map
// unit every 4 KiB write would be a read-modify-write of its 8 KiB page.
#include <gtest/gtest.h>

#include "tests/model/timing_drive.h"

namespace map_unit_test {

using namespace ssdtest;

std::vector<std::string> one_die(std::vector<std::string> extra) {
  extra.insert(extra.begin(), {"--nand.channels=1", "--nand.dies_per_channel=1", "--nand.page_size=8k",
                               "--workload.iodepth=1", "--workload.bs=4k"});
  return drive(extra);
}

// The Write4k schedule up to the NAND command; what the flash adds follows.
const uint64_t kToFlash =
    kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kLookup + kUpdate + dram(8) + kFlashOp;

TEST(MapUnit, TheSecondUnitOfAPageProgramsIt) {
  auto r = simulate(one_die({"--controller.map_unit=4k", "--precondition=none", "--workload.rw=write",
                             "--workload.number_ios=2"}));
  // Unit 0 waits in the controller's buffer: no flash time, and no NAND
  // command to build (no cpu.cycles.flash_op). Unit 1 fills the page: its
  // command, the 8 KiB move over the bus, then tPROG.
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), (kToFlash - kFlashOp + kComplete) / kNs);
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(),
            (kToFlash + ps_xfer(8192, kChannel) + kTprog + kComplete) / kNs);
  EXPECT_EQ(r["device"]["channels"][0]["programs"], 1);
  EXPECT_EQ(r["device"]["compression"]["physical_bytes_written"], 8192);
  EXPECT_EQ(r["device"]["compression"]["logical_bytes_written"], 8192);
}

TEST(MapUnit, AUnitReadMovesItsOwnBytes) {
  auto r = simulate(one_die({"--controller.map_unit=4k", "--precondition=seq-fill", "--workload.rw=randread",
                             "--workload.number_ios=1"}));
  const uint64_t read = kCmd + kDecode + kLookup + dram(4) + kFlashOp + kTr + ps_xfer(4096, kChannel) + dram(4096) +
                        std::max(kComplete, ps_xfer(4096, kSata));
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), read / kNs);
}

TEST(MapUnit, WithoutItA4kWriteReadsAndProgramsTheWholePage) {
  // The contrast: the 8 KiB page's other half comes from flash (tR and its
  // 8 KiB out, into DRAM), then the page is programmed.
  auto r = simulate(one_die({"--precondition=seq-fill", "--workload.rw=write", "--workload.number_ios=1"}));
  const uint64_t rmw = kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kLookup + dram(4) + kFlashOp + kTr +
                       ps_xfer(8192, kChannel) + dram(8192) + kLookup + kUpdate + dram(8) + kFlashOp +
                       ps_xfer(8192, kChannel) + kTprog + kComplete;
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), rmw / kNs);
}

TEST(MapUnit, GcKeepsEveryUnitsData) {
  // A used drive of 4 KiB units on 8 KiB pages, random 4 KiB and 2 KiB
  // (read-modify-write of a unit) reads and writes under GC: every read is
  // checked against what the host last wrote (a mismatch exits 3).
  auto r = simulate({"--nand.channels=2", "--nand.dies_per_channel=2", "--nand.page_size=8k",
                     "--nand.blocks_per_plane=64", "--nand.pages_per_block=64", "--controller.map_unit=4k",
                     "--precondition=used", "--check.content=true", "--workload.rw=randrw", "--workload.bs=2k",
                     "--workload.number_ios=20000"});
  EXPECT_GT(r["device"]["gc_runs"].get<uint64_t>(), 100u);
  EXPECT_GT(r["device"]["content_check"]["pages_checked"].get<uint64_t>(), 9000u);
  // The user capacity is the flash pages' (2 planes by default), in units.
  EXPECT_EQ(r["device"]["user_capacity_bytes"].get<uint64_t>(),
            uint64_t(2 * 2 * 2 * 64 * 64 / 1.07) * 8192);
}

TEST(MapUnit, BadValuesAndCombinationsAreRefused) {
  for (const std::vector<std::string>& a : std::vector<std::vector<std::string>>{
           {"--controller.map_unit=3000B"}, {"--controller.map_unit=8k"}, {"--controller.map_unit=16k"},
           {"--controller.map_unit=3k"}})
    EXPECT_THROW(parse(one_die(a)), std::exception) << a[0];
  for (const char* k : {"--nand.copyback=true", "--nand.partial_read=true", "--nand.suspend=true"}) {
    try {
      parse(one_die({"--controller.map_unit=4k", k}));
      ADD_FAILURE() << "accepted: " << k;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("controller.map_unit"), std::string::npos) << e.what();
    }
  }
}

}  // namespace map_unit_test

