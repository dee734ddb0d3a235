// SIGINT / SIGTERM during a run (model/sim/interrupt.h), in-process: the
// signal is raised before the run, so where it stops is exact. (Each test
// case runs in a process of its own: the handlers and the flag are the
// process's.) The binary's end of it, a real Ctrl-C with the report and the
// exit status, is InterruptCli in interrupt_cli_test.cpp. The grace after
// which a run that does not stop ends anyway is tested on a forked child.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>

#include "model/sim/interrupt.h"
#include "tests/model/args.h"
#include "tests/model/scratch.h"
#include "tests/model/sim_harness.h"

namespace {

using ssdtest::parse;
using ssdtest::with;

const std::vector<std::string> kDrive = {"--nand.channels=2", "--nand.dies_per_channel=2", "--nand.blocks_per_plane=64",
                                         "--nand.pages_per_block=64", "--workload.rw=randread",
                                         "--workload.number_ios=1000"};

TEST(Interrupt, TheTimedPhaseStopsAtTheFirstCompletionAfterTheSignal) {
  const ssd::Options opts = parse(with(kDrive, {"--precondition=none", "--workload.iodepth=1"}));
  ssd::Simulation sim(opts.config());
  ssd::catch_interrupts();
  ASSERT_EQ(ssd::interrupt_signal(), 0);
  std::raise(SIGINT);
  ASSERT_EQ(ssd::interrupt_signal(), SIGINT);
  sim.run();
  // QD1: the one command in flight completes, and no other is issued.
  EXPECT_EQ(sim.host().completed(), 1u);
  EXPECT_EQ(sim.host().stop_reason(), ssd::StopReason::Interrupted);
  const nlohmann::json r = sim.report();
  EXPECT_EQ(r["device"]["stop_reason"], "interrupted");
  EXPECT_EQ(r["read"]["total_ios"], 1u);
  // The report's time is that IO's completion, not the workload's end.
  EXPECT_EQ(r["device"]["simulated_time_ns"].get<uint64_t>(), ssdtlm::to_ns(sim.host().last_completion()));
}

TEST(Interrupt, AtQueueDepthEightNoCommandIsIssuedAfterTheSignal) {
  const ssd::Options opts = parse(with(kDrive, {"--precondition=none", "--workload.iodepth=8"}));
  ssd::Simulation sim(opts.config());
  ssd::catch_interrupts();
  std::raise(SIGTERM);
  sim.run();
  // The first completion stops the kernel; commands that complete in the
  // same instant may still count, but at most the eight first issued.
  EXPECT_GE(sim.host().completed(), 1u);
  EXPECT_LE(sim.host().completed(), 8u);
  EXPECT_EQ(sim.report()["device"]["stop_reason"], "interrupted");
}

TEST(Interrupt, PreconditioningStopsWithNoReport) {
  const ssd::Options opts = parse(with(kDrive, {"--precondition=seq-fill"}));
  ssd::Simulation sim(opts.config());
  ssd::catch_interrupts();
  std::raise(SIGTERM);
  try {
    sim.run();
    FAIL() << "the run went on after SIGTERM while preconditioning";
  } catch (const ssd::Interrupted& e) {
    EXPECT_NE(std::string(e.what()).find("interrupted by SIGTERM while preconditioning, at page 0 of "),
              std::string::npos)
        << e.what();
  }
}

TEST(Interrupt, WithoutASignalTheRunIsUntouched) {
  const ssd::Options opts = parse(with(kDrive, {"--precondition=none", "--workload.iodepth=4"}));
  ssd::Simulation sim(opts.config());
  ssd::catch_interrupts();
  sim.run();
  EXPECT_EQ(sim.host().completed(), 1000u);
  EXPECT_EQ(sim.report()["device"]["stop_reason"], "workload done");
}

// A child process that takes `sig` after catch_interrupts(grace) and then
// sleeps `sleep_s`, with the run stopped first if `stopped`: how it ended
// (waitpid status) and when.
struct Ended {
  int status;
  double seconds;
};
Ended child(int sig, unsigned grace, bool stopped, unsigned sleep_s, const std::string& unwritten = "") {
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    ssd::catch_interrupts(grace);
    ssd::remove_if_forced(unwritten);
    if (stopped) ssd::run_stopped();
    std::raise(sig);
    sleep(sleep_s);  // (a signal interrupts it: sleep on until the time is up)
    while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(sleep_s)) sleep(1);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return {status, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
}

TEST(Interrupt, ARunThatDoesNotStopWithinTheGraceEndsByTheSignal) {
  // ... and removes the report file it created empty (OutputFile in main.cpp).
  const std::string report = ssdtest::scratch("unwritten.json");
  std::ofstream(report).flush();
  const Ended e = child(SIGINT, 1, false, 4, report);
  ASSERT_TRUE(WIFSIGNALED(e.status)) << "exited " << WEXITSTATUS(e.status);
  EXPECT_EQ(WTERMSIG(e.status), SIGINT);
  EXPECT_GE(e.seconds, 0.9);
  EXPECT_LT(e.seconds, 3.5);
  EXPECT_FALSE(std::filesystem::exists(report));
}

TEST(Interrupt, OnceTheRunStoppedNoGraceRuns) {
  // Writing the report after the run may take as long as it takes.
  const std::string report = ssdtest::scratch("being_written.json");
  std::ofstream(report).flush();
  const Ended e = child(SIGTERM, 1, true, 3, report);
  ASSERT_TRUE(WIFEXITED(e.status)) << "killed by signal " << WTERMSIG(e.status);
  EXPECT_EQ(WEXITSTATUS(e.status), 0);
  EXPECT_TRUE(std::filesystem::exists(report));
}

}  // namespace
