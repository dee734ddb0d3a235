// Multi-plane operation (nand.multiplane) on an idle one-die, two-plane
// drive, from the parameters. Firmware, DRAM and host costs are set to zero
// so only the flash remains. An 8 KiB command is two pages on the die's two
// planes: without multi-plane the die runs them one after the other (each
// its transfer and its array time); as one multi-plane operation both
// transfers go back to back and the array time is paid once. So the
// command ends one tPROG (write) or one tR (read) earlier.
#include <gtest/gtest.h>

#include "tests/model/cli_util.h"

namespace nand_multiplane_test {

using ssdtest::read_json;
using ssdtest::run;
using ssdtest::tmp;

const std::string kTwoPlanes =
    "--nand.channels=1 --nand.dies_per_channel=1 --nand.planes_per_die=2 --nand.blocks_per_plane=32 "
    "--nand.pages_per_block=64 --nand.t_read=50us --nand.t_prog=900us --nand.t_erase=2ms --nand.channel_rate=40MB/s "
    "--ftl.op=0.25 --dram.size=0 --cpu.cycles.decode=0 --cpu.cycles.complete=0 --cpu.cycles.flash_op=0 "
    "--cpu.cycles.ftl_lookup=0 --cpu.cycles.map_update=0 --workload.iodepth=1 --log-level=off ";
constexpr double kTrNs = 50e3, kTprogNs = 900e3;

nlohmann::json report(const std::string& args, const std::string& name) {
  const std::string rep = tmp("mp_" + name + ".json");
  const auto r = run(kTwoPlanes + args + " --report " + rep);
  EXPECT_EQ(r.code, 0) << r.out;
  return read_json(rep);
}

uint64_t max_latency_ns(const nlohmann::json& j, const char* op) { return j[op]["clat_ns"]["max"].get<uint64_t>(); }

TEST(NandMultiplane, TwoPageWriteTakesOneProgramTime) {
  const std::string w = "--precondition=none --workload.rw=write --workload.bs=8k --workload.number_ios=1 ";
  const auto plain = report(w, "w0"), mp = report(w + "--nand.multiplane=true", "w1");
  // Plain: 2 x (transfer + tPROG); multi-plane: 2 transfers + tPROG.
  EXPECT_EQ(max_latency_ns(plain, "write") - max_latency_ns(mp, "write"), uint64_t(kTprogNs));
  const auto& ch = mp["device"]["channels"][0];
  EXPECT_EQ(ch["programs"].get<uint64_t>(), 2u);
  EXPECT_EQ(ch["multi_plane_ops"].get<uint64_t>(), 1u);
  EXPECT_EQ(ch["multi_plane_pages"].get<uint64_t>(), 2u);
  EXPECT_EQ(plain["device"]["channels"][0]["multi_plane_ops"].get<uint64_t>(), 0u);
}

TEST(NandMultiplane, TwoPageReadTakesOneReadTime) {
  const std::string r = "--precondition=seq-fill --workload.rw=read --workload.bs=8k --workload.number_ios=1 ";
  const auto plain = report(r, "r0"), mp = report(r + "--nand.multiplane=true", "r1");
  EXPECT_EQ(max_latency_ns(plain, "read") - max_latency_ns(mp, "read"), uint64_t(kTrNs));
  EXPECT_EQ(mp["device"]["channels"][0]["multi_plane_ops"].get<uint64_t>(), 1u);
}

TEST(NandMultiplane, TwoPageReadCrossesTheDramPortAfterTheFlash) {
  // With the DRAM buffer (666 MB/s, 60 ns), the two pages' map entries are
  // looked up in it (4 B each, one after the other on the port), and the two
  // pages, read together by one multi-plane read, cross it one after the
  // other on their way to the host: the read ends that much later than on a
  // DRAM-less controller.
  const std::string r = "--precondition=seq-fill --workload.rw=read --workload.bs=8k --workload.number_ios=1 "
                        "--nand.multiplane=true ";
  const auto sram = report(r, "dram0"), dram = report(r + "--dram.size=64m --dram.bandwidth=666MB/s --dram.latency=60ns --dram.map_entry=4B", "dram64");
  const double bytes_per_ns = 666e6 / 1e9, latency_ns = 60;
  const double expected = (2 * 4 + 2 * 4096) / bytes_per_ns + 2 * latency_ns;  // 12432.3 ns
  EXPECT_NEAR(double(max_latency_ns(dram, "read") - max_latency_ns(sram, "read")), expected, 2.0);
}

TEST(NandMultiplane, SinglePagesStayOnePlane) {
  // 4 KiB writes: one page per command, nothing to pair.
  const auto j = report("--precondition=none --workload.rw=write --workload.bs=4k --workload.number_ios=8 "
                        "--nand.multiplane=true", "s");
  EXPECT_EQ(j["device"]["channels"][0]["multi_plane_ops"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["device"]["channels"][0]["programs"].get<uint64_t>(), 8u);
}

TEST(NandMultiplane, GarbageCollectionErasesEveryPlaneAtOnce) {
  // Random overwrites of a full drive force GC: every erase is of a
  // multi-plane block (one tBERS for both planes' blocks), counted per
  // plane. Every read is checked against what the host last wrote there.
  const auto j = report("--precondition=seq-fill --workload.rw=randrw --workload.bs=8k --workload.number_ios=4000 "
                        "--nand.multiplane=true --check.content=true", "gc");
  const auto& ch = j["device"]["channels"][0];
  const uint64_t erases = ch["erases"].get<uint64_t>() + ch["gc_erases"].get<uint64_t>();
  ASSERT_GT(erases, 0u);
  EXPECT_EQ(erases % 2, 0u);
  EXPECT_GT(ch["multi_plane_ops"].get<uint64_t>(), 0u);
  EXPECT_GT(j["read"]["total_ios"].get<uint64_t>(), 0u);
}

TEST(NandMultiplane, MultiPlaneBlockTooLargeIsRefused) {
  const auto r = run("--nand.planes_per_die=16 --nand.pages_per_block=4096 --nand.multiplane=true --log-level=off");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("nand.multiplane"), std::string::npos) << r.out;
}

}  // namespace nand_multiplane_test

