// Timing regression: single-IO latencies on an idle drive, computed here from
// the configured parameters and exact to the nanosecond, and the throughput
// limits that channel count, the SATA link and the CPU put on 4 KiB reads.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/model/timing_drive.h"

namespace timing_test {

using namespace ssdtest;

TEST(IdleLatency, Read4k) {
  auto r = ssdtest::simulate(drive({"--precondition=seq-fill", "--workload.rw=randread", "--workload.bs=4k",
                                    "--workload.iodepth=1", "--workload.number_ios=1"}));
  // command FIS + decode + FTL lookup + map entry in DRAM + issue the NAND read
  // + tR + page over the channel + page into DRAM, then the data over SATA
  // (the completion step runs during the transfer; it is shorter).
  static_assert(2000 < 13653, "completion shorter than the 4 KiB Data FIS");
  const uint64_t expected = kCmd + kDecode + kLookup + dram(4) + kFlashOp + kTr + ps_xfer(4096, kChannel) +
                            dram(4096) + std::max(kComplete, ps_xfer(4096, kSata));
  ASSERT_EQ(r["read"]["total_ios"], 1);
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), expected / kNs);
  EXPECT_EQ(r["device"]["simulated_time_ns"].get<uint64_t>(), expected / kNs);
}

TEST(IdleLatency, Write4k) {
  auto r = ssdtest::simulate(drive({"--precondition=none", "--workload.rw=randwrite", "--workload.bs=4k",
                                    "--workload.iodepth=1", "--workload.number_ios=1"}));
  // command FIS + data over SATA + decode + data into DRAM + FTL lookup and map
  // update (2 entries in DRAM) + issue + page over the channel + tPROG + completion.
  const uint64_t expected = kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kLookup + kUpdate + dram(8) +
                            kFlashOp + ps_xfer(4096, kChannel) + kTprog + kComplete;
  ASSERT_EQ(r["write"]["total_ios"], 1);
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), expected / kNs);
}

TEST(IdleLatency, Write4kIntoWriteCacheCompletesFromDram) {
  auto r = ssdtest::simulate(drive({"--precondition=none", "--dram.write_cache=16m", "--workload.rw=randwrite",
                                    "--workload.bs=4k", "--workload.iodepth=1", "--workload.number_ios=1"}));
  const uint64_t expected = kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kComplete;
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), expected / kNs);
}

TEST(IdleLatency, Write64kIntoWriteCacheLandsEachDataFisInDramAsItArrives) {
  // 64 KiB cross the link as 8 Data FISes of 8 KiB. Each lands in DRAM as
  // it arrives (shifted by the decode that precedes the DMA), so only the
  // last FIS's staging follows the link, not the whole command's.
  auto r = ssdtest::simulate(drive({"--precondition=none", "--dram.write_cache=16m", "--workload.rw=write",
                                    "--workload.bs=64k", "--workload.iodepth=1", "--workload.number_ios=1"}));
  // The DRAM keeps up: a FIS's staging (60 ns + 8 KiB at 666 MB/s) is
  // shorter than the next FIS's link time (8 KiB at 300 MB/s).
  ASSERT_LT(dram(8192), ps_xfer(8192, kSata));
  const uint64_t expected = kCmd + 8 * ps_xfer(8192, kSata) + kDecode + dram(8192) + kComplete;
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), expected / kNs);
}

TEST(IdleLatency, WriteLargerThanTheWriteCacheCrossesTheLinkAsDestagesFreeSlots) {
  // SATA flow control (sata.flow_control): a 16 KiB write (two Data FISes of two pages each)
  // into a cache of two pages, on one die. The first FIS crosses once the
  // decode has set up the DMA; its pages destage one after the other on the
  // die. The second FIS needs both slots back: the drive asks for it when
  // the second destage program ends, and the host's completion follows it.
  auto r = ssdtest::simulate(drive({"--precondition=none", "--nand.channels=1", "--nand.dies_per_channel=1",
                                    "--sata.flow_control=true", "--dram.write_cache=8k", "--workload.rw=write", "--workload.bs=16k",
                                    "--workload.iodepth=1", "--workload.number_ios=1"}));
  const uint64_t landed = kCmd + kDecode + ps_xfer(8192, kSata) + dram(8192);
  const uint64_t program0 = landed + kLookup + kUpdate + dram(8) + kFlashOp + kHostProgram;
  const uint64_t program1 = program0 + kHostProgram;  // the die takes page 1 once page 0 is programmed
  const uint64_t expected = program1 + ps_xfer(8192, kSata) + dram(8192) + kComplete;
  ASSERT_EQ(r["write"]["total_ios"], 1);
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), expected / kNs);
  // The link waited for the decode before the first FIS, and from the end
  // of the first FIS to the second page's program end before the second.
  const uint64_t held = kDecode + (program1 - (kCmd + kDecode + ps_xfer(8192, kSata)));
  EXPECT_EQ(r["device"]["sata"]["write_data_held_ns"].get<uint64_t>(), held / kNs);
}

TEST(IdleLatency, Read128kSpreadsOverChannelsAndDies) {
  // seq-fill striped LPN i onto die i (channel i % 8), so a 128 KiB read
  // touches 32 dies, 4 per channel. The firmware issues the pages one after
  // another on the single core; each channel then moves its 4 pages in turn;
  // the link streams Data FISes as pages reach DRAM.
  auto r = ssdtest::simulate(drive({"--precondition=seq-fill", "--workload.rw=read", "--workload.bs=128k",
                                    "--workload.iodepth=1", "--workload.number_ios=1"}));
  const uint64_t start = kCmd + kDecode;
  // Per page, the core runs the lookup, the map read in DRAM leaves it idle,
  // then it issues the NAND read; the next lookup does not fit in that idle
  // gap (it is shorter than the lookup), so pages issue every lookup + map + issue.
  const uint64_t per_page = kLookup + dram(4) + kFlashOp;
  std::vector<uint64_t> bus_free(8, 0), done(32);
  for (int i = 0; i < 32; ++i) {
    const uint64_t issued = start + uint64_t(i) * per_page + kLookup + dram(4) + kFlashOp;
    const uint64_t xfer_start = std::max(issued + kTr, bus_free[size_t(i % 8)]);
    bus_free[size_t(i % 8)] = xfer_start + ps_xfer(4096, kChannel);
    done[size_t(i)] = bus_free[size_t(i % 8)];
  }
  // Pages enter DRAM in order, one at a time on its port.
  uint64_t port = 0, last = 0;
  std::vector<uint64_t> in_dram(32);
  for (int i = 0; i < 32; ++i) {
    const uint64_t s = std::max(done[size_t(i)], port);
    port = s + ps_xfer(4096, kDram);
    in_dram[size_t(i)] = s + dram(4096);
    last = std::max(last, in_dram[size_t(i)]);
  }
  // 8 KiB Data FISes (two pages each) stream in order as their pages arrive.
  uint64_t link = 0;
  for (int k = 0; k < 16; ++k)
    link = std::max({link, in_dram[size_t(2 * k)], in_dram[size_t(2 * k + 1)]}) + ps_xfer(8192, kSata);
  const uint64_t expected = std::max(link, last + kComplete);
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), expected / kNs);
  for (const auto& c : r["device"]["channels"]) EXPECT_EQ(c["reads"], 4);
}

// 4 KiB random reads at QD32: IOPS track the channel count until the SATA
// link (command FIS + 4 KiB of payload per IO) is the bottleneck.
class ChannelScaling : public testing::TestWithParam<int> {};

TEST_P(ChannelScaling, RandomReadIopsFollowTheLimitingResource) {
  const int ch = GetParam();
  auto r = ssdtest::simulate(drive({"--nand.channels=" + std::to_string(ch), "--precondition=seq-fill",
                                    "--workload.rw=randread", "--workload.iodepth=32", "--workload.number_ios=20000"}));
  const double channel_limit = ch / (4096.0 / kChannel);        // the bus moves one page per 102.4 us
  const double sata_limit = 1.0 / (2e-6 + 4096.0 / kSata);      // one FIS exchange + payload per IO
  const double cpu_limit = kClock / (800.0 + 150 + 100 + 400);  // cycles per read IO
  const double predicted = std::min({channel_limit, sata_limit, cpu_limit});
  const double iops = r["read"]["iops"].get<double>();
  RecordProperty("iops", std::to_string(iops));
  // Random placement leaves some channels briefly idle: within 8% below the bound.
  EXPECT_LE(iops, predicted * 1.001);
  EXPECT_GE(iops, predicted * 0.92);
  double ch_util = 0;
  for (const auto& c : r["device"]["channels"]) ch_util += c["utilisation"].get<double>() / ch;
  const double sata_util = r["device"]["sata"]["utilisation"].get<double>();
  if (channel_limit < sata_limit) {
    EXPECT_GT(ch_util, 0.92) << "channels should be the bottleneck";
    EXPECT_LT(sata_util, 0.85);
  } else {
    EXPECT_GT(sata_util, 0.92) << "the SATA link should be the bottleneck";
    EXPECT_LT(ch_util, 0.9);
  }
}

INSTANTIATE_TEST_SUITE_P(Channels, ChannelScaling, testing::Values(1, 2, 4, 8));

TEST(CpuLimit, SlowCoreCapsIopsAtItsCycleBudget) {
  // A 20 MHz core: 1450 cycles per read is 72.5 us, below every other limit.
  auto r = ssdtest::simulate(drive({"--cpu.clock=20MHz", "--precondition=seq-fill", "--workload.rw=randread",
                                    "--workload.iodepth=32", "--workload.number_ios=5000"}));
  const double predicted = 20e6 / 1450.0;
  EXPECT_NEAR(r["read"]["iops"].get<double>(), predicted, predicted * 0.02);
  EXPECT_GT(r["device"]["cpu"]["utilisation"].get<double>(), 0.97);
}

TEST(SteadyState, RandomWritesOnUsedDriveRunGcAndCountWriteAmplification) {
  auto r = ssdtest::simulate(drive({"--precondition=used", "--ftl.op=0.07", "--workload.rw=randwrite",
                                    "--workload.number_ios=20000"}));
  const auto& d = r["device"];
  EXPECT_GT(d["gc_runs"].get<uint64_t>(), 0u);
  const double wa = d["write_amplification"].get<double>();
  EXPECT_GT(wa, 1.5);
  // Accounting: flash pages written = host pages + pages moved by GC.
  EXPECT_EQ(d["flash_pages_written"].get<uint64_t>(),
            d["host_pages_written"].get<uint64_t>() + d["gc_pages_moved"].get<uint64_t>());
  uint64_t programs = 0;
  for (const auto& c : d["channels"]) programs += c["programs"].get<uint64_t>() + c["gc_programs"].get<uint64_t>();
  EXPECT_EQ(programs, d["flash_pages_written"].get<uint64_t>());
}

TEST(IdleLatency, Read4kOnDramlessController) {
  // No DRAM: the map lookup and the page staging cost nothing beyond SRAM.
  auto r = ssdtest::simulate(drive({"--dram.size=0", "--precondition=seq-fill", "--workload.rw=randread",
                                    "--workload.iodepth=1", "--workload.number_ios=1"}));
  const uint64_t expected =
      kCmd + kDecode + kLookup + kFlashOp + kTr + ps_xfer(4096, kChannel) + std::max(kComplete, ps_xfer(4096, kSata));
  EXPECT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), expected / kNs);
}

TEST(IdleLatency, Write4kIntoSramWriteBufferCompletesWithoutDramTraffic) {
  // A DRAM-less controller's SRAM write buffer: the DRAM write cache's rule,
  // without the staging into DRAM (dram() steps) the cache's write pays.
  auto r = ssdtest::simulate(drive({"--precondition=none", "--dram.size=0", "--controller.sram_write_buffer=512k",
                                    "--workload.rw=randwrite", "--workload.bs=4k", "--workload.iodepth=1",
                                    "--workload.number_ios=1"}));
  const uint64_t expected = kCmd + ps_xfer(4096, kSata) + kDecode + kComplete;
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), expected / kNs);
  EXPECT_EQ(r["device"]["sram"]["write_buffer_bytes"].get<uint64_t>(), 512u << 10);
  EXPECT_EQ(r["device"]["dram"]["write_cache_bytes"].get<uint64_t>(), 0u);
}

// A source of fixed requests, for sequences the synthetic workload cannot make.
class ListSource : public ssd::IoSource {
 public:
  explicit ListSource(std::vector<ssd::HostRequest> list) : list_(std::move(list)) {}
  bool next(ssd::HostRequest& req, const sc_core::sc_time&) override {
    if (i_ == list_.size()) return false;
    req = list_[i_++];
    return true;
  }
  std::string describe() const override { return "list"; }

 private:
  std::vector<ssd::HostRequest> list_;
  size_t i_ = 0;
};

// One 4 KiB write at LBA 0, then FLUSH CACHE once it completes (QD1), on
// the timing drive with `extra`.
nlohmann::json write_then_flush(std::vector<std::string> extra) {
  extra.insert(extra.begin(), "--precondition=none");
  const ssd::Options opts = ssdtest::parse(drive(std::move(extra)));
  ssd::Simulation sim(opts.config());
  ssd::HostRequest w, f;
  w.op = ssdtlm::HostOp::Write, w.offset = 0, w.bytes = 4096;
  f.op = ssdtlm::HostOp::Flush, f.id = 1;
  ListSource src({w, f});
  sim.run(&src, 1);
  return sim.report();
}

TEST(WriteCache, FlushCacheWaitsForTheDestage) {
  auto r = write_then_flush({"--dram.write_cache=16m"});
  // The write completes from DRAM; its completion runs first on the core,
  // then the FTL work, the NAND command and the program. FLUSH CACHE (issued
  // when the write completes) ends one completion after the program.
  const uint64_t write_lat = kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kComplete;
  const uint64_t destage = kComplete + kLookup + kUpdate + dram(8) + kFlashOp + ps_xfer(4096, kChannel) + kTprog;
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), write_lat / kNs);
  EXPECT_EQ(r["flush"]["total_ios"].get<uint64_t>(), 1u);
  EXPECT_EQ(uint64_t(r["flush"]["lat_ns"]["max"].get<double>()), destage / kNs);
}

TEST(WriteCache, SramWriteBufferHoldsAPageUntilItsProgramEnds) {
  // One page of SRAM buffer: the write completes at once; FLUSH CACHE waits
  // for its destage, which runs as the DRAM cache's does (FlushCacheWaits-
  // ForTheDestage) less the map entries' DRAM access.
  auto r = write_then_flush({"--dram.size=0", "--controller.sram_write_buffer=4k"});
  const uint64_t write_lat = kCmd + ps_xfer(4096, kSata) + kDecode + kComplete;
  const uint64_t destage = kComplete + kLookup + kUpdate + kFlashOp + ps_xfer(4096, kChannel) + kTprog;
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), write_lat / kNs);
  EXPECT_EQ(uint64_t(r["flush"]["lat_ns"]["max"].get<double>()), destage / kNs);
}

TEST(WriteCache, FullSramWriteBufferMakesAWriteWaitForTheEarliestProgram) {
  // Two 4 KiB writes at QD1 on one die into a one-page buffer: the second
  // is admitted when the first's program ends, so it completes one
  // completion step after that (its data and decode came long before).
  auto r = ssdtest::simulate(drive({"--precondition=none", "--nand.channels=1", "--nand.dies_per_channel=1",
                                    "--dram.size=0", "--controller.sram_write_buffer=4k", "--workload.rw=write",
                                    "--workload.bs=4k", "--workload.iodepth=1", "--workload.number_ios=2"}));
  const uint64_t first = kCmd + ps_xfer(4096, kSata) + kDecode + kComplete;
  // The first's destage follows its completion step on the core.
  const uint64_t released = first + kLookup + kUpdate + kFlashOp + ps_xfer(4096, kChannel) + kTprog;
  const uint64_t second = released + kComplete - first;  // issued when the first completed
  ASSERT_GT(released, first + kCmd + ps_xfer(4096, kSata) + kDecode);  // the wait is for the slot
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), first / kNs);
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(), second / kNs);
}

}  // namespace timing_test
