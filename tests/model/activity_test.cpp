// --vcd and --activity on an idle drive: one 4 KiB read, whose every step is
// computed here from the parameters (as in timing_test.cpp), must show up in
// the Perfetto trace and the VCD waveform at exactly those times.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "tests/model/scratch.h"
#include "tests/model/timing_drive.h"
#include "tests/model/vcd_reader.h"

namespace activity_test {

using namespace ssdtest;
using nlohmann::json;

std::string tmp(const std::string& name) { return scratch("activity_" + name); }

uint64_t ps_of(const json& us) { return uint64_t(std::llround(us.get<double>() * 1e6)); }

// The single 4 KiB read's schedule (IdleLatency.Read4k): the NAND read is
// issued after the command FIS, decode, FTL lookup, map entry in DRAM and
// the firmware's flash-op step; the die is then busy for tR plus the page's
// transfer, and the bus for the transfer.
const uint64_t kIssue = kCmd + kDecode + kLookup + dram(4) + kFlashOp;
const uint64_t kXfer = ps_xfer(4096, kChannel);
const uint64_t kDieEnd = kIssue + kTr + kXfer;
const uint64_t kLatency = kDieEnd + dram(4096) + std::max(kComplete, ps_xfer(4096, kSata));

std::vector<std::string> one_read(std::vector<std::string> extra) {
  std::vector<std::string> a{"--precondition=seq-fill", "--workload.rw=randread", "--workload.bs=4k",
                             "--workload.iodepth=1", "--workload.number_ios=1"};
  a.insert(a.end(), extra.begin(), extra.end());
  return drive(a);
}

std::vector<json> slices(const json& trace, const std::string& name) {
  std::vector<json> out;
  for (const json& e : trace["traceEvents"])
    if (e["ph"] == "X" && e["name"] == name) out.push_back(e);
  return out;
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

TEST(Activity, Read4kSlicesAndSignalsAtTheComputedTimes) {
  const std::string trace_path = tmp("read.json"), vcd_path = tmp("read.vcd");
  const json r = simulate(one_read({"--activity=" + trace_path, "--vcd=" + vcd_path}));
  ASSERT_EQ(r["read"]["lat_ns"]["min"].get<uint64_t>(), kLatency / kNs);

  const json t = read_json(trace_path);
  const auto reads = slices(t, "read");
  ASSERT_EQ(reads.size(), 1u);
  const json& die = reads[0];
  EXPECT_EQ(ps_of(die["ts"]), kIssue);
  EXPECT_EQ(ps_of(die["dur"]), kTr + kXfer);
  EXPECT_EQ(die["args"]["gc"], false);
  EXPECT_TRUE(die["args"].contains("lpn") && die["args"].contains("ppn"));
  const uint32_t pid = die["pid"], die_tid = die["tid"];
  ASSERT_GE(pid, 10u);
  const auto transfers = slices(t, "transfer");
  ASSERT_EQ(transfers.size(), 1u);
  EXPECT_EQ(transfers[0]["pid"], pid);  // the die's own channel
  EXPECT_EQ(ps_of(transfers[0]["ts"]), kIssue + kTr);
  EXPECT_EQ(ps_of(transfers[0]["dur"]), kXfer);
  // The host command spans the whole latency, and a flow links it to the NAND read.
  const auto host = slices(t, "READ");
  ASSERT_EQ(host.size(), 1u);
  EXPECT_EQ(ps_of(host[0]["ts"]), 0u);
  EXPECT_EQ(ps_of(host[0]["dur"]), kLatency);
  EXPECT_EQ(ps_of(slices(t, "command").at(0)["dur"]), kCmd);
  int flow_starts = 0, flow_ends = 0;
  for (const json& e : t["traceEvents"]) {
    if (e["ph"] == "s") {
      ++flow_starts;
      EXPECT_EQ(e["pid"], 1);
    }
    if (e["ph"] == "f") {
      ++flow_ends;
      EXPECT_EQ(e["pid"], pid);
      EXPECT_EQ(e["tid"], die_tid);
      EXPECT_GT(ps_of(e["ts"]), kIssue);
      EXPECT_LT(ps_of(e["ts"]), kDieEnd);
    }
  }
  EXPECT_EQ(flow_starts, 1);
  EXPECT_EQ(flow_ends, 1);
  // Names of the tracks: process and thread metadata.
  bool named = false;
  for (const json& e : t["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["pid"] == pid && e["tid"] == die_tid)
      named = e["args"]["name"] == "die" + std::to_string(die_tid - 2);
  EXPECT_TRUE(named);

  // The VCD: the same die goes busy with code 1 (read) and idle at the same times.
  const Vcd v = read_vcd(vcd_path);
  EXPECT_EQ(v.ps_per_unit, 1u);
  const std::string channel = "channel" + std::to_string(pid - 10);
  using Changes = std::vector<std::pair<uint64_t, uint64_t>>;
  EXPECT_EQ(v.of(channel + ".die" + std::to_string(die_tid - 2)), (Changes{{0, 0}, {kIssue, 1}, {kDieEnd, 0}}));
  EXPECT_EQ(v.of(channel + ".bus"), (Changes{{0, 0}, {kIssue + kTr, 4}, {kDieEnd, 0}}));
  // The link: the command FIS from 0 (code 7), idle, then the 4 KiB Data FIS (code 8) ending the command.
  const Changes& link = v.of("sata.link");
  ASSERT_EQ(link.size(), 4u);
  EXPECT_EQ(link[0], (std::pair<uint64_t, uint64_t>{0, 7}));
  EXPECT_EQ(link[1], (std::pair<uint64_t, uint64_t>{kCmd, 0}));
  EXPECT_EQ(link[2].second, 8u);
  EXPECT_EQ(link[3], (std::pair<uint64_t, uint64_t>{kLatency, 0}));
  // Every die and bus is declared; the other dies stay idle.
  for (uint32_t c = 0; c < 8; ++c)
    for (uint32_t d = 0; d < 4; ++d) {
      const std::string name = "channel" + std::to_string(c) + ".die" + std::to_string(d);
      ASSERT_TRUE(v.id_of.count(name)) << name;
      if (name != channel + ".die" + std::to_string(die_tid - 2)) {
        EXPECT_EQ(v.of(name), (Changes{{0, 0}})) << name;
      }
    }
  EXPECT_TRUE(v.id_of.count("cpu.core0") && v.id_of.count("dram.port"));
}

TEST(Activity, WindowDropsWhatIsOutsideIt) {
  // A window inside the die's read: the firmware before it and the Data FIS
  // after it fall outside.
  const uint64_t from = 10000 * kNs, to = 100000 * kNs;
  ASSERT_LT(kIssue, from);
  ASSERT_GT(kDieEnd, to);
  const std::string trace_path = tmp("window.json"), vcd_path = tmp("window.vcd");
  simulate(one_read({"--activity=" + trace_path, "--vcd=" + vcd_path, "--activity.start=10us",
                     "--activity.end=100us", "--vcd.start=10us", "--vcd.end=100us"}));
  const json t = read_json(trace_path);
  size_t kept = 0;
  for (const json& e : t["traceEvents"]) {
    if (e["ph"] != "X") continue;
    ++kept;
    EXPECT_LT(ps_of(e["ts"]), to) << e;
    EXPECT_GT(ps_of(e["ts"]) + ps_of(e["dur"]), from) << e;
  }
  // Kept whole: the die's read, the bus transfer (57 us on) and the host command spanning it all.
  EXPECT_EQ(kept, 3u);
  ASSERT_EQ(slices(t, "read").size(), 1u);
  EXPECT_EQ(ps_of(slices(t, "read")[0]["ts"]), kIssue);
  EXPECT_EQ(slices(t, "transfer").size(), 1u);
  EXPECT_EQ(slices(t, "READ").size(), 1u);
  EXPECT_TRUE(slices(t, "command").empty());
  EXPECT_TRUE(slices(t, "firmware").empty());

  // The VCD is clipped: the die reads busy from the window's start to its end.
  const Vcd v = read_vcd(vcd_path);
  using Changes = std::vector<std::pair<uint64_t, uint64_t>>;
  const json die = slices(t, "read")[0];
  const std::string name = "channel" + std::to_string(die["pid"].get<int>() - 10) + ".die" +
                           std::to_string(die["tid"].get<int>() - 2);
  EXPECT_EQ(v.of(name), (Changes{{0, 0}, {from, 1}, {to, 0}}));
  EXPECT_EQ(v.of("sata.link"), (Changes{{0, 0}}));
  EXPECT_EQ(v.of("cpu.core0"), (Changes{{0, 0}}));
}

}  // namespace activity_test

