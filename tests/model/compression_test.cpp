// Controller compression (controller.compression, workload.compressibility):
// the packing of compressed host pages into flash pages, the timing of the
// flash work it leaves on an idle one-die drive (from the parameters, with
// firmware, DRAM and host costs at zero), and its effect under GC with every
// read checked against what the host wrote.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/model/cli_util.h"

namespace compression_test {

using ssdtest::read_json;
using ssdtest::run;
using ssdtest::tmp;

const std::string kDrive =
    "--nand.channels=1 --nand.dies_per_channel=1 --nand.planes_per_die=1 --nand.blocks_per_plane=32 "
    "--nand.pages_per_block=64 --nand.t_read=50us --nand.t_prog=900us --nand.t_erase=2ms --nand.channel_rate=40MB/s "
    "--ftl.op=0.25 --dram.size=0 --cpu.cycles.decode=0 --cpu.cycles.complete=0 --cpu.cycles.flash_op=0 "
    "--cpu.cycles.ftl_lookup=0 --cpu.cycles.map_update=0 --log-level=off ";
const std::string kOneDie = kDrive + "--workload.iodepth=1 --workload.bs=4k ";
constexpr double kRate = 40e6, kTrNs = 50e3, kTprogNs = 900e3;

nlohmann::json report(const std::string& args, const std::string& name, const std::string& drive = kOneDie) {
  const std::string rep = tmp("cmp_" + name + ".json");
  const auto r = run(drive + args + " --report " + rep);
  EXPECT_EQ(r.code, 0) << r.out;
  return read_json(rep);
}

uint64_t clat(const nlohmann::json& j, const char* op, const char* which) {
  return j[op]["clat_ns"][which].get<uint64_t>();
}

TEST(Compression, HalfSizePagesProgramEverySecondWrite) {
  // 50 %: two host pages per flash page. The first of each pair waits in
  // the controller's buffer (no flash time); the second programs the page:
  // one transfer of the whole page and one tPROG, as a plain write.
  const std::string w = "--precondition=none --workload.rw=write --workload.number_ios=8 ";
  const auto plain = report(w, "w0");
  const auto packed = report(w + "--controller.compression=true --workload.compressibility=50", "w1");
  const uint64_t page_ns = uint64_t(4096 / kRate * 1e9 + 0.5) + uint64_t(kTprogNs);
  EXPECT_EQ(clat(plain, "write", "min"), clat(plain, "write", "max"));
  EXPECT_EQ(clat(packed, "write", "max"), clat(plain, "write", "max"));
  EXPECT_EQ(clat(plain, "write", "min") - clat(packed, "write", "min"), page_ns);
  const auto& c = packed["device"]["compression"];
  EXPECT_EQ(c["compressed_page_bytes"].get<uint64_t>(), 2048u);
  EXPECT_EQ(c["logical_bytes_written"].get<uint64_t>(), 8u * 4096);
  EXPECT_EQ(c["physical_bytes_written"].get<uint64_t>(), 4u * 4096);
  EXPECT_EQ(packed["device"]["channels"][0]["programs"].get<uint64_t>(), 4u);
  EXPECT_EQ(packed["device"]["user_capacity_bytes"], plain["device"]["user_capacity_bytes"]);
}

TEST(Compression, APageStraddlingTwoFlashPagesReadsBoth) {
  // 25 %: 3072 B per host page; host page 1 lies in bytes [3072, 6144) of
  // the block: 1024 B of flash page 0 and 2048 B of page 1. Its read takes
  // two tR and moves its 3072 B; a plain read one tR and 4096 B.
  const std::string r = "--precondition=seq-fill --workload.rw=read --workload.number_ios=1 --workload.offset=4k "
                        "--workload.size=4k ";
  const auto plain = report(r, "r0");
  const auto packed = report(r + "--controller.compression=true --workload.compressibility=25", "r1");
  const int64_t expect = int64_t(kTrNs) - int64_t(1024 / kRate * 1e9 + 0.5);  // + tR - 1024 B of transfer
  EXPECT_EQ(int64_t(clat(packed, "read", "max")) - int64_t(clat(plain, "read", "max")), expect);
  EXPECT_EQ(packed["device"]["channels"][0]["reads"].get<uint64_t>(), 2u);
}

TEST(Compression, TheFirmwareBuildsANandCommandPerFlashPageTouched) {
  // cpu.cycles.flash_op is the cost of one NAND command: a write whose host
  // page waits in the buffer builds none, the straddling read above two.
  const std::string cpu = "--cpu.clock=100MHz --cpu.cycles.flash_op=1000 ";  // 10 us a command
  constexpr uint64_t kOpNs = 10000;
  const std::string w = cpu + "--precondition=none --workload.rw=write --workload.number_ios=8 ";
  const auto plain_w = report(w, "fw0");
  const auto packed_w = report(w + "--controller.compression=true --workload.compressibility=50", "fw1");
  const uint64_t page_ns = uint64_t(4096 / kRate * 1e9 + 0.5) + uint64_t(kTprogNs);
  EXPECT_EQ(clat(packed_w, "write", "max"), clat(plain_w, "write", "max"));
  EXPECT_EQ(clat(plain_w, "write", "min") - clat(packed_w, "write", "min"), page_ns + kOpNs);
  const std::string r = cpu + "--precondition=seq-fill --workload.rw=read --workload.number_ios=1 "
                              "--workload.offset=4k --workload.size=4k ";
  const auto plain_r = report(r, "fr0");
  const auto packed_r = report(r + "--controller.compression=true --workload.compressibility=25", "fr1");
  const int64_t expect = int64_t(kOpNs + kTrNs) - int64_t(1024 / kRate * 1e9 + 0.5);
  EXPECT_EQ(int64_t(clat(packed_r, "read", "max")) - int64_t(clat(plain_r, "read", "max")), expect);
}

TEST(Compression, IncompressibleDataChangesNothing) {
  const std::string w = "--precondition=seq-fill --workload.rw=randrw --workload.number_ios=3000 ";
  const auto plain = report(w, "n0");
  const auto off = report(w + "--controller.compression=true --workload.compressibility=0", "n1");
  EXPECT_EQ(plain["write"]["clat_ns"], off["write"]["clat_ns"]);
  EXPECT_EQ(plain["read"]["clat_ns"], off["read"]["clat_ns"]);
  EXPECT_FALSE(off["device"].contains("compression"));
}

TEST(Compression, SpaceSavedBecomesSpareUnderGc) {
  // Random overwrites of a full drive: GC moves fewer pages when the data
  // compresses (the FTL has more pages than the host can fill), and every
  // read returns what the host last wrote there.
  const std::string w = "--precondition=seq-fill --workload.rw=randrw --workload.number_ios=20000 "
                        "--check.content=true ";
  const auto plain = report(w, "g0");
  const auto packed = report(w + "--controller.compression=true --workload.compressibility=40", "g1");
  ASSERT_GT(plain["device"]["gc_runs"].get<uint64_t>(), 0u);
  ASSERT_GT(packed["device"]["gc_runs"].get<uint64_t>(), 0u);
  EXPECT_LT(packed["device"]["write_amplification"].get<double>(), plain["device"]["write_amplification"].get<double>());
  EXPECT_GT(packed["device"]["content_check"]["pages_checked"].get<uint64_t>(), 0u);
  const auto& c = packed["device"]["compression"];
  EXPECT_LT(c["physical_bytes_written"].get<uint64_t>(), c["logical_bytes_written"].get<uint64_t>());
}

TEST(Compression, AMergeReadsThePagesItCopies) {
  // Block- and log-mapped FTLs plan a merge whole (copy the block's pages,
  // then erase it) before the controller times it: the copies' reads must
  // still find the pages on flash, not count them as still in the buffer.
  // 2 KiB slots fill 4 KiB flash pages exactly (no slot straddles two) and a
  // block FTL merges only full blocks: one flash read per copied slot.
  const auto j = report("--ftl.name=block --precondition=seq-fill --workload.rw=randwrite --workload.number_ios=40 "
                        "--controller.compression=true --workload.compressibility=50 --check.content=true",
                        "merge");
  const uint64_t moved = j["device"]["gc_pages_moved"].get<uint64_t>();
  uint64_t gc_reads = 0;
  for (const auto& c : j["device"]["channels"]) gc_reads += c["gc_reads"].get<uint64_t>();
  ASSERT_GT(moved, 0u);
  EXPECT_EQ(gc_reads, moved);
}

TEST(Compression, AnIdleTimeMergeReadsThePagesItCopiesToo) {
  // The same for the block FTL's idle-time flush (ftl.idle_after): its
  // merge runs op by op while the host may come back, so what its plan saw
  // of the array is read when it is planned. A timed replay of 12 writes,
  // 20 ms apart, each to another logical block (64 host pages of 2 KiB
  // slots), leaves the drive idle after each: the flush merges it.
  const std::string trace = tmp("cmp_idle.csv");
  {
    std::ofstream f(trace);
    f << "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n";
    for (int k = 0; k < 12; ++k)
      f << 128166372000000000 + 200000LL * k << ",h,0,Write," << (k * 5 % 12) * 256 * 1024 + 4096 * k << ",4096,0\n";
  }
  const auto j = report("--ftl.name=block --ftl.idle_after=1ms --precondition=seq-fill --trace " + trace +
                            " --controller.compression=true --workload.compressibility=50 --check.content=true",
                        "idle", kDrive);
  const uint64_t moved = j["device"]["gc_pages_moved"].get<uint64_t>();
  uint64_t gc_reads = 0;
  for (const auto& c : j["device"]["channels"]) gc_reads += c["gc_reads"].get<uint64_t>();
  ASSERT_GT(j["device"]["background_slices"].get<uint64_t>(), 0u);
  ASSERT_GT(moved, 0u);
  EXPECT_EQ(gc_reads, moved);
}

TEST(Compression, JobFileGivesTheCompressibility) {
  const std::string job = tmp("cmp.fio"), bad = tmp("cmp_bad.fio");
  std::ofstream(job) << "[global]\nbuffer_compress_percentage=50\n[a]\nrw=write\nbs=4k\nnumber_ios=8\n";
  const auto j = report("--precondition=none --controller.compression=true --job " + job, "job", kDrive);
  EXPECT_EQ(j["device"]["compression"]["compressed_page_bytes"].get<uint64_t>(), 2048u);
  std::ofstream(bad) << "[a]\nrw=write\nbuffer_compress_percentage=50\n[b]\nrw=write\nbuffer_compress_percentage=20\n";
  const auto r = run(kDrive + "--controller.compression=true --job " + bad);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("buffer_compress_percentage differs"), std::string::npos) << r.out;
}

TEST(Compression, CombinationsNotModelledAreRefused) {
  for (const char* k : {"--nand.multiplane=true", "--nand.copyback=true", "--nand.partial_read=true",
                        "--powerfail.at=1ms"}) {
    const auto r = run(kOneDie + "--controller.compression=true --workload.compressibility=50 " + k);
    EXPECT_EQ(r.code, 2) << k << r.out;
    EXPECT_NE(r.out.find(std::string(k).substr(2, std::string(k).find('=') - 2)), std::string::npos) << r.out;
  }
  const auto r = run(kOneDie + "--controller.compression=true --workload.compressibility=95");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("workload.compressibility"), std::string::npos) << r.out;
}

// A drive that does not compress writes every byte: the data's
// compressibility, given anyway, is refused rather than silently ignored.
TEST(Compression, CompressibilityWithoutCompressionIsRefused) {
  const auto r = run(kOneDie + "--workload.compressibility=50");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("option '--workload.compressibility': matters only with controller.compression=true"),
            std::string::npos) << r.out;
  const std::string job = tmp("cmp_off.fio");
  std::ofstream(job) << "[a]\nrw=write\nbs=4k\nnumber_ios=8\nbuffer_compress_percentage=50\n";
  const auto j = run(kDrive + "--job " + job);
  EXPECT_EQ(j.code, 2) << j.out;
  EXPECT_NE(j.out.find(job + ": buffer_compress_percentage matters only with controller.compression=true"),
            std::string::npos) << j.out;
}

}  // namespace compression_test

