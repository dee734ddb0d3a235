// The host side, timed exactly on an idle drive: the OS/AHCI cost of a
// command and of its completion on the host CPU, and queue depths beyond
// NCQ (requests wait in the host queue for a free NCQ tag).
#include <gtest/gtest.h>

#include "tests/model/timing_drive.h"

namespace host_test {

using namespace ssdtest;

TEST(HostSide, CommandAndInterruptCostsAddToAnIdleRead) {
  auto r = simulate(drive({"--precondition=seq-fill", "--workload.rw=randread", "--workload.bs=4k",
                           "--workload.iodepth=1", "--workload.number_ios=1", "--host.cmd_overhead=7us",
                           "--host.irq_overhead=5us"}));
  // IdleLatency.Read4k, after 7 us of host CPU to submit and before 5 us to complete.
  const uint64_t device = kCmd + kDecode + kLookup + dram(4) + kFlashOp + kTr + ps_xfer(4096, kChannel) + dram(4096) +
                          std::max(kComplete, ps_xfer(4096, kSata));
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), (7000 * kNs + device + 5000 * kNs) / kNs);
  EXPECT_EQ(r["read"]["slat_ns"]["max"].get<uint64_t>(), 0u);
}

TEST(HostSide, FisOverheadPerDataFisOfAWrite) {
  // A 4 KiB write crosses the link in one Data FIS, which loses
  // sata.fis_overhead; the rest is IdleLatency.Write4k's schedule.
  auto r = simulate(drive({"--precondition=none", "--workload.rw=randwrite", "--workload.bs=4k",
                           "--workload.iodepth=1", "--workload.number_ios=1", "--sata.fis_overhead=3us"}));
  const uint64_t expected = kCmd + ps_xfer(4096, kSata) + 3000 * kNs + kDecode + dram(4096) + kLookup + kUpdate +
                            dram(8) + kFlashOp + ps_xfer(4096, kChannel) + kTprog + kComplete;
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), expected / kNs);
}

TEST(HostSide, FisOverheadBoundsALongReadOnTheLink) {
  // 2 MiB reads at QD 8 keep the link busy: 256 Data FISes per read, each
  // 8 KiB at 300 MB/s plus 4 us, plus the command's FIS exchange (2 us).
  auto r = simulate(drive({"--precondition=seq-fill", "--workload.rw=read", "--workload.bs=2m",
                           "--workload.iodepth=8", "--workload.number_ios=200", "--sata.fis_overhead=4us"}));
  const double per_io_s = 256 * (8192 / kSata + 4e-6) + 2e-6;
  const double bw = r["read"]["bw_bytes"].get<double>();
  EXPECT_NEAR(bw, (2 << 20) / per_io_s, (2 << 20) / per_io_s * 0.01);
}

TEST(HostSide, OneHostCpuCapsIops) {
  // 20 us of host CPU per IO (15 submit + 5 complete) on one CPU: at most
  // 50 k IOPS however fast the drive (8 channels x 4 dies of cached reads).
  auto r = simulate(drive({"--precondition=seq-fill", "--workload.rw=randread", "--workload.iodepth=32",
                           "--workload.number_ios=20000", "--host.cmd_overhead=15us", "--host.irq_overhead=5us"}));
  const double iops = r["read"]["iops"].get<double>();
  EXPECT_LE(iops, 50000.0 * 1.0001);
  EXPECT_GE(iops, 50000.0 * 0.97);  // the host CPU is the bottleneck: the drive alone does ~60 k
}

TEST(HostSide, QueueDepthBeyondNcqWaitsInTheHost) {
  // QD 64 on NCQ 8: never more than 8 commands in the drive; the rest wait
  // in the host queue (slat), and the drive's throughput is that of QD 8.
  auto r = simulate(drive({"--precondition=seq-fill", "--workload.rw=randread", "--workload.iodepth=64",
                           "--sata.ncq_depth=8", "--workload.number_ios=4000"}));
  EXPECT_EQ(r["read"]["total_ios"], 4000);
  // Closed loop at QD 64 with 8 in the drive: each IO waits for 56 ahead of it,
  // so slat is about 7 x clat in steady state.
  const double slat = r["read"]["slat_ns"]["mean"].get<double>(), clat = r["read"]["clat_ns"]["mean"].get<double>();
  EXPECT_NEAR(slat / clat, 7.0, 0.7);
  EXPECT_EQ(r["device"]["host_errors"], 0);  // every tag the host used was one the drive offers
  // First come, first served: a request waits for the 56 ahead of it, which
  // leave 8 at a time, each within the longest device time. (A freed tag
  // taken again by the slot that freed it starved some for 70x the mean.)
  EXPECT_LE(r["read"]["slat_ns"]["max"].get<double>(), 56.0 / 8.0 * r["read"]["clat_ns"]["max"].get<double>());
}

}  // namespace host_test

