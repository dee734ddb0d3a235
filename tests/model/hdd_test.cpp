// The hard-disk model (device = hdd, model/hdd/hdd_disk.h) timed on an idle
// disk, each expectation computed here from the parameters: rotational
// latency from the platter's angle, the seek curve through its anchor
// points, zoned media rates, the write cache, NCQ reordering and read-ahead.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "tests/model/cli_util.h"

namespace hdd_test {

using ssdtest::read_json;
using ssdtest::run;
using ssdtest::tmp;

// 7,200 rpm: one turn is 8.333 ms. Media 100 MB/s outside, 50 MB/s inside.
constexpr double kRev = 60.0 / 7200, kOuter = 100e6, kInner = 50e6, kCap = 100e9, kOverhead = 300e-6;
constexpr double kCmd = 2e-6, kLink = 300e6;  // the SATA link: command FIS, payload rate
const std::string kDisk =
    "--device=hdd --hdd.capacity=100000000000B --hdd.rpm=7200 --hdd.track_to_track=1ms --hdd.avg_seek=8ms "
    "--hdd.full_seek=18ms --hdd.rate_outer=100MB/s --hdd.rate_inner=50MB/s --hdd.cmd_overhead=300us "
    "--hdd.cache=8m --hdd.read_ahead=512k --log-level=off ";

// The model's layout, written out again: x(offset), rate(x), angle(offset).
double x_of(double offset) {
  const double f = offset / kCap;
  return (kOuter - std::sqrt(kOuter * kOuter - (kOuter - kInner) * f * (kOuter + kInner))) / (kOuter - kInner);
}
double rate(double x) { return kOuter - (kOuter - kInner) * x; }
double angle(double offset) {
  const double turns = offset / (rate(x_of(offset)) * kRev);
  return turns - std::floor(turns);
}
// settle + a sqrt(d) + b d through (1/3, 8 ms) and (1, 18 ms), settle 1 ms.
double seek(double d) {
  const double a = ((8e-3 - 1e-3) - (18e-3 - 1e-3) / 3) / (1 / std::sqrt(3.0) - 1.0 / 3), b = (18e-3 - 1e-3) - a;
  return d == 0 ? 0 : 1e-3 + a * std::sqrt(d) + b * d;
}
double frac(double v) { return v - std::floor(v); }

nlohmann::json disk(const std::string& args, const std::string& name) {
  const std::string rep = tmp(name + ".json");
  const auto r = run(kDisk + args + " --report " + rep);
  EXPECT_EQ(r.code, 0) << r.out;
  return read_json(rep);
}

double lat_s(const nlohmann::json& j, const char* op, const char* which = "min") {
  return j[op]["lat_ns"][which].get<double>() * 1e-9;
}

TEST(Hdd, FirstReadWaitsForItsSectorToComeRound) {
  // The head starts over LBA 0 at angle 0; the command reaches the disk
  // after the command FIS and the electronics: it waits for angle 0 to come
  // round, reads 4 KiB at the outer rate, and the data crosses the link.
  const auto j = disk("--workload.rw=read --workload.bs=4k --workload.iodepth=1 --workload.number_ios=1", "first");
  const double start = kCmd + kOverhead;
  const double expected = start + (kRev - start) + 4096 / kOuter + 4096 / kLink;
  EXPECT_NEAR(lat_s(j, "read"), expected, 2e-9);
}

TEST(Hdd, SeekAndRotationToAFarSector) {
  // One read 60 GB in: a seek over x(60 GB) of the stroke, then the wait
  // for the sector's angle, then the transfer at that zone's rate.
  const double off = 60e9;
  const auto j = disk("--workload.rw=read --workload.bs=4k --workload.iodepth=1 --workload.number_ios=1 "
                      "--workload.offset=60000000000B",
                      "far");
  const double start = kCmd + kOverhead, arrive = start + seek(x_of(off));
  const double wait = frac(angle(off) - frac(arrive / kRev)) * kRev;
  const double expected = arrive + wait + 4096 / rate(x_of(off)) + 4096 / kLink;
  EXPECT_NEAR(lat_s(j, "read"), expected, 2e-9);
}

TEST(Hdd, SeekCurvePassesThroughItsAnchors) {
  EXPECT_NEAR(seek(1.0 / 3), 8e-3, 1e-12);
  EXPECT_NEAR(seek(1.0), 18e-3, 1e-12);
  // The model's mean seek over random reads across the disk lies near the
  // curve's value at a third of the stroke (the datasheet convention).
  const auto j = disk("--workload.rw=randread --workload.bs=4k --workload.iodepth=1 --workload.number_ios=2000", "avg");
  const double mean = j["device"]["hdd"]["mean_seek_ms"].get<double>() * 1e-3;
  EXPECT_GT(mean, 6.5e-3);
  EXPECT_LT(mean, 8.5e-3);
  // Rotation: half a turn on average.
  EXPECT_NEAR(j["device"]["hdd"]["mean_rotation_ms"].get<double>() * 1e-3, kRev / 2, kRev * 0.05);
}

TEST(Hdd, OneSeekTakesTheCurvesTime) {
  // Two reads, a second apart: the head moves once, from the end of the
  // first (LBA 8) to the second's track. At a third of the stroke the model's seek is the average
  // seek (8 ms); a short one is the settle plus a little of the curve. (The
  // report gives the seek time per media operation: two here.)
  for (const double to : {40740741120.0, 1e9}) {  // x = 1/3 (x_of inverted), and 1 GB in
    const std::string trace = tmp("hdd_one_seek.csv");
    {
      std::ofstream f(trace);
      f << "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n";
      f << "128166372000000000,h,0,Read,0,4096,0\n128166372010000000,h,0,Read," << uint64_t(to) << ",4096,0\n";
    }
    const auto h = disk("--trace " + trace, "one_seek")["device"]["hdd"];
    ASSERT_EQ(h["seeks"], 1);
    ASSERT_EQ(h["media_ops"], 2);
    const double d = x_of(to) - x_of(4096);  // from where the first read left the head
    EXPECT_NEAR(h["mean_seek_distance"].get<double>(), d, 1e-12);
    EXPECT_NEAR(2 * h["mean_seek_ms"].get<double>() * 1e-3, seek(d), 1e-12) << "to " << to;
  }
  EXPECT_NEAR(seek(x_of(40740741120.0) - x_of(4096)), 8e-3, 1e-8);
}

TEST(Hdd, SequentialReadRunsAtTheZoneRate) {
  // 2 MiB reads at QD1 stream on (read-ahead): the outer zone's rate at the
  // start of the disk, the inner zone's near its end.
  const auto outer = disk("--workload.rw=read --workload.bs=2m --workload.iodepth=1 --workload.number_ios=100", "o");
  const auto inner = disk("--workload.rw=read --workload.bs=2m --workload.iodepth=1 --workload.number_ios=100 "
                          "--workload.offset=99000000000B",
                          "i");
  EXPECT_NEAR(outer["read"]["bw_bytes"].get<double>(), kOuter, kOuter * 0.03);
  EXPECT_NEAR(inner["read"]["bw_bytes"].get<double>(), rate(x_of(99.1e9)), kInner * 0.03);
  EXPECT_EQ(outer["device"]["hdd"]["media_ops"], 1);  // one positioning, then the stream
}

TEST(Hdd, WriteCacheAcknowledgesFromTheBuffer) {
  const std::string w = "--workload.rw=write --workload.bs=4k --workload.iodepth=1 --workload.number_ios=1 ";
  const auto cached = disk(w + "--hdd.write_cache=true", "wc");
  EXPECT_NEAR(lat_s(cached, "write"), kCmd + 4096 / kLink + kOverhead, 2e-9);
  const auto direct = disk(w + "--hdd.write_cache=false", "nowc");
  const double start = kCmd + 4096 / kLink + kOverhead;
  EXPECT_NEAR(lat_s(direct, "write"), start + (kRev - start) + 4096 / kOuter, 2e-9);
}

TEST(Hdd, ShortestPositioningFirstBeatsArrivalOrder) {
  const std::string q = "--workload.rw=randread --workload.bs=4k --workload.iodepth=32 --workload.number_ios=3000 ";
  const auto sptf = disk(q + "--hdd.ncq_reorder=sptf", "sptf");
  const auto fifo = disk(q + "--hdd.ncq_reorder=fifo", "fifo");
  // FIFO at any depth is QD1's rate: one random positioning per read.
  const double fifo_iops = fifo["read"]["iops"].get<double>();
  const double per_io = seek(1.0 / 3) + kRev / 2 + 4096 / 75e6;
  EXPECT_NEAR(fifo_iops, 1 / per_io, 0.1 / per_io);
  EXPECT_GT(sptf["read"]["iops"].get<double>(), 2.0 * fifo_iops);
}

TEST(Hdd, AgingBoundsTheWaitOfAFarCommand) {
  // QD32 random reads: pure SPTF passes over a far command while nearer ones
  // keep coming; with hdd.max_wait the oldest goes next once it has waited
  // that long, so no read waits much more than the bound plus the one
  // command in service (at most a full seek, a turn and the electronics).
  const std::string q = "--workload.rw=randread --workload.bs=4k --workload.iodepth=32 --workload.number_ios=6000 ";
  const auto pure = disk(q + "--hdd.max_wait=0", "pure");
  const auto aged = disk(q + "--hdd.max_wait=200ms", "aged");
  const double service = 18e-3 + kRev + kOverhead + 4096 / kInner;
  // Each command ahead of an overdue one is itself overdue and served oldest
  // first: at most the 31 others, each one service.
  EXPECT_LE(lat_s(aged, "read", "max"), 0.2 + 32 * service);
  EXPECT_GT(lat_s(pure, "read", "max"), lat_s(aged, "read", "max"));
}

TEST(Hdd, WritesWaitingForBufferRoomAreServedInArrivalOrder) {
  // QD3 random writes into a write cache of 2 segments: a write waits for
  // room, first come first served, so at most for the 2 destages queued
  // ahead and the 2 writes ahead of it (each one service). Before, the
  // newest waiter took the room each time and the oldest waited minutes.
  const auto j = disk("--workload.rw=randwrite --workload.bs=4k --workload.iodepth=3 --workload.size=8g "
                      "--workload.number_ios=20000 --hdd.write_cache=true --hdd.write_segments=2",
                      "wcfifo");
  const double service = 18e-3 + kRev + kOverhead + 4096 / kInner;
  EXPECT_LE(lat_s(j, "write", "max"), 4 * service + kCmd + 4096 / kLink + kOverhead);
}

TEST(Hdd, BatchFlushWritesOutTheFullCacheBeforeTakingAnotherWrite) {
  // Three sequential 4 KiB writes at QD1 into a cache of two segments. The
  // first two are acknowledged from the buffer (A each). The first destage
  // waits for sector 0 to come round (one turn from the start), then moves
  // it. The third write finds the cache full: continuous, it waits for that
  // destage; batch, also for the second write's, which follows at once
  // (its sector is the next one under the head).
  const std::string w = "--workload.rw=write --workload.bs=4k --workload.iodepth=1 --workload.number_ios=3 "
                        "--hdd.write_segments=2 --hdd.write_flush=";
  const double ack = kCmd + 4096 / kLink + kOverhead;
  const double first = kRev + 4096 / rate(x_of(0)), second = first + 4096 / rate(x_of(4096));
  const auto cont = disk(w + "continuous", "wcont");
  const auto batch = disk(w + "batch", "wbatch");
  EXPECT_NEAR(lat_s(cont, "write"), ack, 2e-9);
  EXPECT_NEAR(lat_s(batch, "write"), ack, 2e-9);
  EXPECT_NEAR(lat_s(cont, "write", "max"), first - 2 * ack, 2e-9);
  EXPECT_NEAR(lat_s(batch, "write", "max"), second - 2 * ack, 2e-9);
}

TEST(Hdd, ReadAheadStoppedByAWriteStillServesUpToWhereItGot) {
  // A 4 KiB read at 0, then a second of quiet: the head reads ahead 512 KiB
  // (the buffer holds [0, 516 KiB)). A write far away (no write cache) takes
  // the head; then a 4 KiB read that ends exactly where the read-ahead
  // stopped is served from the buffer: two media operations, one hit.
  const std::string trace = tmp("hdd_ra_stop.csv");
  {
    std::ofstream f(trace);
    const long long t0 = 128166372000000000, second = 10000000;  // 100 ns ticks
    f << "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n";
    f << t0 << ",h,0,Read,0,4096,0\n";
    f << t0 + second << ",h,0,Write,50000000000,4096,0\n";
    f << t0 + 2 * second << ",h,0,Read," << 512 * 1024 << ",4096,0\n";
  }
  const auto j = disk("--hdd.write_cache=false --trace " + trace, "ra_stop");
  EXPECT_EQ(j["device"]["hdd"]["media_ops"], 2);
  EXPECT_EQ(j["device"]["hdd"]["buffer_hits"], 1);
}

TEST(Hdd, ReadAheadServesTheNextSequentialRead) {
  // Two 4 KiB reads in a row: the second finds its data read ahead.
  const auto j = disk("--workload.rw=read --workload.bs=4k --workload.iodepth=1 --workload.number_ios=2", "ra");
  EXPECT_EQ(j["device"]["hdd"]["media_ops"], 1);
  EXPECT_EQ(j["device"]["hdd"]["buffer_hits"], 1);
  // It came off the media while the first one's completion crossed the host:
  // only the command path and the link remain.
  EXPECT_NEAR(lat_s(j, "read", "min"), kCmd + kOverhead + 4096 / kLink, 2e-9);
}

TEST(Hdd, OptionsOfTheOtherDeviceAreRefused) {
  for (const std::string bad : {"--device=hdd --nand.channels=4", "--device=hdd --precondition=used",
                                "--hdd.rpm=5400", "--device=hdd --hdd.avg_seek=30ms",
                                "--device=hdd --hdd.avg_seek=2ms --hdd.track_to_track=1ms --hdd.full_seek=20ms",
                                "--device=hdd --hdd.rate_inner=200MB/s", "--device=hdd --hdd.capacity=1000B",
                                "--device=hdd --hdd.write_cache=false --hdd.write_flush=batch",
                                "--device=hdd --hdd.write_cache=false --hdd.write_segments=1",
                                "--device=hdd --hdd.rate_outer=1B/s --hdd.rate_inner=1B/s",
                                "--device=hdd --hdd.cache=256k"}) {  // the default read-ahead (512k) no longer fits
    const auto r = run(bad + " --log-level=off");
    EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
    EXPECT_EQ(ssdtest::program_lines(r.out), 1) << r.out;
  }
}

// The media's times must fit SystemC's clock: the largest command (32 MiB)
// at 3 MB/s is 11 s, over a device step's 10 s (it overflowed the 64-bit
// picoseconds at 1 B/s).
TEST(Hdd, AMediaRateTooSlowForTheClockIsRefused) {
  const auto r = run("--device=hdd --hdd.rate_outer=3MB/s --hdd.rate_inner=3MB/s --log-level=off");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("option '--hdd.rate_inner': the largest command's transfer (32 MiB) at the inner edge is "
                       "longer than the 10 s this option allows"),
            std::string::npos) << r.out;
  EXPECT_EQ(run("--device=hdd --hdd.rate_outer=4MB/s --hdd.rate_inner=4MB/s --workload.number_ios=10 "
                "--log-level=off").code, 0);
}

}  // namespace hdd_test

