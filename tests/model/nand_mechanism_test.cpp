// NAND mechanisms that are off by default, each timed exactly on an idle
// drive (expected values computed here from the parameters): MLC fast and
// slow pages, partial-page reads, and copyback for GC moves.
#include <gtest/gtest.h>

#include "model/sim/config.h"
#include "tests/model/timing_drive.h"

namespace nand_mechanism_test {

using namespace ssdtest;

// One channel, one die: consecutive pages of one block, so page types alternate.
std::vector<std::string> one_die(std::vector<std::string> extra) {
  extra.insert(extra.begin(), {"--nand.channels=1", "--nand.dies_per_channel=1", "--workload.iodepth=1",
                               "--workload.bs=4k", "--workload.number_ios=2"});
  return drive(extra);
}

TEST(MlcPages, LsbProgramsFastMsbSlow) {
  auto r = simulate(one_die({"--precondition=none", "--workload.rw=write", "--nand.page_types=lsb-msb",
                             "--nand.t_prog_lsb=400us", "--nand.t_prog_msb=1400us"}));
  // The Write4k schedule with the page's own tPROG: page 0 (LSB), then page 1 (MSB).
  auto write = [](uint64_t tprog) {
    return kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kLookup + kUpdate + dram(8) + kFlashOp +
           ps_xfer(4096, kChannel) + tprog + kComplete;
  };
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), write(400000 * kNs) / kNs);
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(), write(1400000 * kNs) / kNs);
}

TEST(MlcPages, LsbReadsFastMsbSlow) {
  auto r = simulate(one_die({"--precondition=seq-fill", "--workload.rw=read", "--nand.page_types=lsb-msb",
                             "--nand.t_read_lsb=30us", "--nand.t_read_msb=70us"}));
  // seq-fill put LPN 0 on page 0 (LSB) and LPN 1 on page 1 (MSB); the Read4k schedule with each tR.
  auto read = [](uint64_t tr) {
    return kCmd + kDecode + kLookup + dram(4) + kFlashOp + tr + ps_xfer(4096, kChannel) + dram(4096) +
           std::max(kComplete, ps_xfer(4096, kSata));
  };
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), read(30000 * kNs) / kNs);
  EXPECT_EQ(r["read"]["lat_ns"]["max"].get<uint64_t>(), read(70000 * kNs) / kNs);
}

TEST(MlcPages, AllBitLineOrderPairsEachUpperPageWithTheNextWordLine) {
  // Word line n: LSB page 2n-1 (0 for n = 0), MSB page 2n+2 (the last page
  // for the last word line): a block of 8 runs L L M L M L M M.
  ssd::NandConfig c;
  c.geometry.pages_per_block = 8;
  c.lsb_msb = c.all_bit_line = true;
  const bool lsb[8] = {true, true, false, true, false, true, false, false};
  for (uint32_t p = 0; p < 8; ++p) EXPECT_EQ(c.lsb_page(p), lsb[p]) << "page " << p;
  c.all_bit_line = false;  // even-odd: L M L M ...
  for (uint32_t p = 0; p < 8; ++p) EXPECT_EQ(c.lsb_page(p), p % 2 == 0) << "page " << p;
}

TEST(MlcPages, AllBitLineOrderTimesTheFirstFourPagesLLML) {
  auto r = simulate(one_die({"--precondition=none", "--workload.rw=write", "--nand.page_types=lsb-msb-abl",
                             "--nand.t_prog_lsb=400us", "--nand.t_prog_msb=1400us", "--workload.number_ios=4"}));
  auto write = [](uint64_t tprog) {
    return kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kLookup + kUpdate + dram(8) + kFlashOp +
           ps_xfer(4096, kChannel) + tprog + kComplete;
  };
  // Pages 0, 1, 3 are LSB, page 2 MSB (even-odd would make two of four MSB).
  const double mean = (3.0 * double(write(400000 * kNs)) + double(write(1400000 * kNs))) / 4 / kNs;
  EXPECT_NEAR(r["write"]["lat_ns"]["mean"].get<double>(), mean, 1.0);
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(), write(1400000 * kNs) / kNs);
}

TEST(MlcPages, UniformIgnoresNothingSilently) {
  // Page-type times without page types would be ignored: refused instead.
  EXPECT_THROW(parse(drive({"--nand.t_prog_msb=1ms"})), ssd::OptionError);
}

// One simulation per process (SystemC elaborates once): one case per setting.
class PartialRead : public testing::TestWithParam<bool> {};

TEST_P(PartialRead, MovesOnlyTheSectorsAsked) {
  const bool partial = GetParam();
  auto r = simulate(drive({"--precondition=seq-fill", "--workload.rw=randread", "--workload.bs=512B",
                           "--workload.iodepth=1", "--workload.number_ios=1",
                           std::string("--nand.partial_read=") + (partial ? "true" : "false")}));
  // The array reads the page (tR); the bus and the DRAM port carry 512 B
  // with partial reads, the whole page without.
  const uint64_t moved = partial ? 512 : 4096;
  const uint64_t expected = kCmd + kDecode + kLookup + dram(4) + kFlashOp + kTr + ps_xfer(double(moved), kChannel) +
                            dram(moved) + std::max(kComplete, ps_xfer(512, kSata));
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), expected / kNs);
}
INSTANTIATE_TEST_SUITE_P(OffOn, PartialRead, testing::Bool());

class Copyback : public testing::TestWithParam<bool> {};

TEST_P(Copyback, GcMovesLeaveTheBus) {
  // A used drive under 4 KiB random writes: GC moves valid pages within each
  // die. Every host program moves a page over its channel's bus; a GC move
  // moves it twice (read out, program in), or not at all with copyback.
  const bool copyback = GetParam();
  const auto r = simulate(drive({"--precondition=used", "--workload.rw=randwrite", "--workload.number_ios=20000",
                                 "--nand.blocks_per_plane=32",
                                 std::string("--nand.copyback=") + (copyback ? "true" : "false")}));
  ASSERT_GT(r["device"]["gc_pages_moved"].get<uint64_t>(), 1000u);
  for (const auto& c : r["device"]["channels"]) {
    ASSERT_EQ(c["reads"], 0);  // aligned writes: no read-modify-write
    const uint64_t pages = c["programs"].get<uint64_t>() +
                           (copyback ? 0 : c["gc_reads"].get<uint64_t>() + c["gc_programs"].get<uint64_t>());
    const double expected_ns = double(pages) * double(ps_xfer(4096, kChannel)) / double(kNs);
    EXPECT_NEAR(double(c["busy_ns"].get<uint64_t>()), expected_ns, 1.0) << c;
  }
}
INSTANTIATE_TEST_SUITE_P(OffOn, Copyback, testing::Bool());

}  // namespace nand_mechanism_test

