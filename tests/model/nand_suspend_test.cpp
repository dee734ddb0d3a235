// Program/erase suspend (nand.suspend), timed exactly on an idle drive: a
// host read that finds its die programming suspends the program (tR
// t_suspend after it reaches the die) instead of waiting for it; the
// program resumes after the read's data is out and ends later by that
// time: a write-back destage holds its page's write-cache slot that much
// longer (a read of it then still hits the cache), a write-through write
// completes that much later. The erase case:
// IdleWork.ReadSuspendsTheBackgroundErase (ftl_interface_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

#include "model/host/io_source.h"
#include "tests/model/scratch.h"
#include "tests/model/timed_source.h"
#include "tests/model/timing_drive.h"

namespace ssd {
namespace nand_suspend_test {

using namespace ssdtest;

HostRequest at(ssdtlm::HostOp op, uint64_t lpn, uint64_t ps) {
  HostRequest r;
  r.op = op, r.offset = lpn * 4096, r.bytes = 4096, r.timed = true;
  r.arrival = sc_core::sc_time(double(ps), sc_core::SC_PS);
  return r;
}

const uint64_t kXfer = ps_xfer(4096, kChannel), kSuspend = 30000 * kNs;
// Write-back: the write is acknowledged once staged (the core posts the
// completion first), then the FTL and the destage program: its tPROG ends
// when a write-through write would complete, less nothing: kComplete ran
// before it instead of after.
const uint64_t kProgramEnd = kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kComplete + kLookup + kUpdate +
                             dram(8) + kFlashOp + kXfer + kTprog;
// From a read's arrival to its NAND command at the die; from its data in
// DRAM to its completion.
const uint64_t kToDie = kCmd + kDecode + kLookup + dram(4) + kFlashOp,
               kFromFlash = dram(4096) + std::max(kComplete, ps_xfer(4096, kSata));

// One die, seq-filled, a 64 KiB write-back cache, content checks; suspend
// (t_suspend 30 us) when `on`.
SimConfig write_back_die(bool on) {
  std::vector<std::string> a{"--nand.channels=1", "--nand.dies_per_channel=1", "--precondition=seq-fill",
                             "--dram.write_cache=64k", "--check.content=true"};
  if (on) a.insert(a.end(), {"--nand.suspend=true", "--nand.t_suspend=30us"});
  return parse(drive(a)).config();
}

class Suspend : public testing::TestWithParam<bool> {};

TEST_P(Suspend, AReadSuspendsTheDestageProgram) {
  const bool on = GetParam();
  Simulation sim(write_back_die(on));
  // LPN 0 written at 0; LPN 1 (on flash since the fill) read halfway through
  // the program; LPN 0 read just after the program's first end.
  const uint64_t read_at = kProgramEnd - kTprog / 2, reread_at = kProgramEnd + 1000 * kNs;
  TimedRequests src({at(ssdtlm::HostOp::Write, 0, 0), at(ssdtlm::HostOp::Read, 1, read_at),
                     at(ssdtlm::HostOp::Read, 0, reread_at)});
  sim.run(&src, 1);
  const auto r = sim.report();
  const uint64_t away = kSuspend + kTr + kXfer;  // the die's time away from the program
  const uint64_t read = on ? kToDie + away + kFromFlash : kProgramEnd + kTr + kXfer + kFromFlash - read_at;
  EXPECT_EQ(r["read"]["lat_ns"]["max"].get<uint64_t>(), read / kNs);
  EXPECT_EQ(r["device"]["channels"][0]["suspends"], on ? 1 : 0);
  // Die: the program and the read (tR, the page out), plus t_suspend.
  const uint64_t die_busy = kXfer + kTprog + kTr + kXfer + (on ? kSuspend : 0);
  // The program now ends at kProgramEnd + away: LPN 0 is still in the cache
  // (a DRAM hit); without suspend its slot was released and it comes from
  // flash (one more tR and transfer on the die).
  EXPECT_EQ(r["device"]["dram"]["write_cache_read_hits"], on ? 1 : 0);
  EXPECT_EQ(r["device"]["dies"][0]["busy_ns"].get<uint64_t>(), (die_busy + (on ? 0 : kTr + kXfer)) / kNs);
  EXPECT_EQ(r["device"]["content_check"]["pages_checked"], 2);
}

INSTANTIATE_TEST_SUITE_P(OffOn, Suspend, testing::Bool());

// Write-through (no write cache): the host waits for the program. A read
// halfway through it suspends it all the same; the write's completion,
// already answered, moves later by the die's time away, and the host sees
// it then.
class SuspendWriteThrough : public testing::TestWithParam<bool> {};

TEST_P(SuspendWriteThrough, TheWriteCompletesLaterByTheReadsTime) {
  const bool on = GetParam();
  std::vector<std::string> a{"--nand.channels=1", "--nand.dies_per_channel=1", "--precondition=seq-fill",
                             "--check.content=true"};
  if (on) a.insert(a.end(), {"--nand.suspend=true", "--nand.t_suspend=30us"});
  const Options opts = parse(drive(a));
  Simulation sim(opts.config());
  // The Write4k schedule: its tPROG ends kComplete before the write completes.
  const uint64_t write = kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kLookup + kUpdate + dram(8) + kFlashOp +
                         kXfer + kTprog + kComplete;
  const uint64_t program_end = write - kComplete, read_at = program_end - kTprog / 2;
  TimedRequests src({at(ssdtlm::HostOp::Write, 0, 0), at(ssdtlm::HostOp::Read, 1, read_at)});
  sim.run(&src, 2);  // the read is issued while the write is outstanding
  const auto r = sim.report();
  const uint64_t away = kSuspend + kTr + kXfer;
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(), (write + (on ? away : 0)) / kNs);
  const uint64_t read = on ? kToDie + away + kFromFlash : program_end + kTr + kXfer + kFromFlash - read_at;
  EXPECT_EQ(r["read"]["lat_ns"]["max"].get<uint64_t>(), read / kNs);
  EXPECT_EQ(r["device"]["channels"][0]["suspends"], on ? 1 : 0);
}

INSTANTIATE_TEST_SUITE_P(OffOn, SuspendWriteThrough, testing::Bool());

TEST(SuspendWriteThrough, EveryWriteBehindTheSuspendedProgramCompletesLater) {
  // Two write-through writes queued together: the second's program is
  // booked behind the first's on the only die. A read during the first
  // suspends it; both programs, and so both writes, end later by the die's
  // time away.
  const Options opts = parse(drive({"--nand.channels=1", "--nand.dies_per_channel=1", "--precondition=seq-fill",
                                    "--nand.suspend=true", "--nand.t_suspend=30us"}));
  Simulation sim(opts.config());
  const uint64_t write = kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kLookup + kUpdate + dram(8) + kFlashOp +
                         kXfer + kTprog + kComplete;
  const uint64_t program_end = write - kComplete, read_at = program_end - kTprog / 2, second_at = 1000 * kNs;
  TimedRequests src({at(ssdtlm::HostOp::Write, 0, 0), at(ssdtlm::HostOp::Write, 2, second_at),
                     at(ssdtlm::HostOp::Read, 1, read_at)});
  sim.run(&src, 3);
  const auto r = sim.report();
  const uint64_t away = kSuspend + kTr + kXfer;
  // The second program follows the first (its data in, then tPROG).
  const uint64_t second = program_end + kXfer + kTprog + kComplete - second_at;
  EXPECT_EQ(r["write"]["lat_ns"]["min"].get<uint64_t>(), (write + away) / kNs);
  EXPECT_EQ(r["write"]["lat_ns"]["max"].get<uint64_t>(), (second + away) / kNs);
  EXPECT_EQ(r["read"]["lat_ns"]["max"].get<uint64_t>(), (kToDie + away + kFromFlash) / kNs);
  EXPECT_EQ(r["device"]["channels"][0]["suspends"], 1);
}

// The activity trace of the same suspend: the program stays on the die's
// track where it was booked, the read is drawn on the die's track of
// suspended reads from the suspend command to its data's end, and the time
// the program is pushed past its booked end follows it under its own name,
// marked `resumed`.
TEST(SuspendActivity, TheReadIsDrawnInTheSuspendAndTheProgramPushedBack) {
  const std::string trace_path = ssdtest::scratch("suspend_activity.json");
  const Options opts = parse(drive({"--nand.channels=1", "--nand.dies_per_channel=1", "--precondition=seq-fill",
                                    "--nand.suspend=true", "--nand.t_suspend=30us", "--activity=" + trace_path}));
  Simulation sim(opts.config());
  const uint64_t write = kCmd + ps_xfer(4096, kSata) + kDecode + dram(4096) + kLookup + kUpdate + dram(8) + kFlashOp +
                         kXfer + kTprog + kComplete;
  const uint64_t program_end = write - kComplete, read_at = program_end - kTprog / 2;
  const uint64_t away = kSuspend + kTr + kXfer;
  TimedRequests src({at(ssdtlm::HostOp::Write, 0, 0), at(ssdtlm::HostOp::Read, 1, read_at)});
  sim.run(&src, 2);
  ASSERT_EQ(sim.report()["device"]["channels"][0]["suspends"], 1);
  std::ifstream in(trace_path);
  const nlohmann::json t = nlohmann::json::parse(in);
  const auto ps = [](const nlohmann::json& us) { return uint64_t(std::llround(us.get<double>() * 1e6)); };
  std::map<std::string, std::vector<nlohmann::json>> die_slices;  // by track name
  std::map<int, std::string> track;
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["pid"] == 10) track[e["tid"]] = e["args"]["name"];
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "X" && e["pid"] == 10 && e["tid"] != 1) die_slices[track.at(e["tid"])].push_back(e);
  const auto& die = die_slices["die0"];
  ASSERT_EQ(die.size(), 2u);
  EXPECT_EQ(die[0]["name"], "program");
  EXPECT_EQ(ps(die[0]["ts"]), program_end - kTprog - kXfer);
  EXPECT_EQ(ps(die[0]["dur"]), kXfer + kTprog);
  EXPECT_FALSE(die[0]["args"].contains("resumed"));
  EXPECT_EQ(die[1]["name"], "program");
  EXPECT_EQ(ps(die[1]["ts"]), program_end);
  EXPECT_EQ(ps(die[1]["dur"]), away);
  EXPECT_EQ(die[1]["args"]["resumed"], true);
  EXPECT_EQ(die[1]["args"]["ppn"], die[0]["args"]["ppn"]);
  EXPECT_EQ(die[1]["args"]["lpn"], 0);
  const auto& reads = die_slices["die0_suspended_reads"];
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0]["name"], "read");
  EXPECT_EQ(ps(reads[0]["ts"]), read_at + kToDie);
  EXPECT_EQ(ps(reads[0]["dur"]), away);
  EXPECT_EQ(reads[0]["args"]["lpn"], 1);
}

class SuspendChain : public testing::TestWithParam<bool> {};

TEST_P(SuspendChain, AReadGoesAheadOfTheProgramsBookedBehindTheRunningOne) {
  // Two writes back to back: the second's destage program is booked right
  // behind the first's on the only die. A read during the first suspends it
  // and both programs end later by the die's time away (the second's
  // write-cache slot is then held past its first end: a read of it just
  // after that end still hits the cache). Without suspend the read waits
  // for both programs, and the re-read finds the page on flash.
  const bool on = GetParam();
  Simulation sim(write_back_die(on));
  const uint64_t read_at = kProgramEnd - kTprog / 2, second_end = kProgramEnd + kXfer + kTprog;
  TimedRequests src({at(ssdtlm::HostOp::Write, 0, 0), at(ssdtlm::HostOp::Write, 2, 1000 * kNs),
                     at(ssdtlm::HostOp::Read, 1, read_at), at(ssdtlm::HostOp::Read, 2, second_end + 1000 * kNs)});
  sim.run(&src, 1);
  const auto r = sim.report();
  const uint64_t away = kSuspend + kTr + kXfer;
  EXPECT_EQ(r["device"]["channels"][0]["suspends"], on ? 1 : 0);
  const uint64_t read = on ? kToDie + away + kFromFlash : second_end + kTr + kXfer + kFromFlash - read_at;
  EXPECT_EQ(r["read"]["lat_ns"]["max"].get<uint64_t>(), read / kNs);
  EXPECT_EQ(r["device"]["dram"]["write_cache_read_hits"], on ? 1 : 0);
  EXPECT_EQ(r["device"]["content_check"]["pages_checked"], 2);
  // Die: two programs, the read (and t_suspend), and without suspend the
  // re-read from flash (its tR waits for the first read's data to leave).
  const uint64_t die_busy = 2 * (kXfer + kTprog) + kTr + kXfer + (on ? kSuspend : kTr + kXfer);
  EXPECT_EQ(r["device"]["dies"][0]["busy_ns"].get<uint64_t>(), die_busy / kNs);
}

INSTANTIATE_TEST_SUITE_P(OffOn, SuspendChain, testing::Bool());

TEST(Suspend, OptionsThatWouldBeIgnoredOrCannotCombineAreRefused) {
  const auto refused = [](std::vector<std::string> a, const std::string& option) {
    try {
      parse(drive(a));
      ADD_FAILURE() << "accepted: " << option;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("'--" + option + "'"), std::string::npos) << e.what();
    }
  };
  refused({"--nand.t_suspend=10us"}, "nand.t_suspend");  // without nand.suspend
  refused({"--nand.max_suspends=4"}, "nand.max_suspends");
  refused({"--nand.suspend=true", "--nand.cache_program=true"}, "nand.cache_program");
  refused({"--nand.suspend=true", "--nand.cache_read=true"}, "nand.cache_read");
  refused({"--nand.suspend=true", "--powerfail.at=1ms"}, "powerfail.at");
  refused({"--nand.suspend=true", "--controller.compression=true", "--workload.compressibility=50"}, "nand.suspend");
}

}  // namespace nand_suspend_test

}  // namespace ssd
