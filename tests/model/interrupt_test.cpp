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

namespace interrupt_test {

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
// `unwritten`: the files it registers with remove_if_forced(), in slot order
// ("": none in that slot).
Ended child(int sig, unsigned grace, bool stopped, unsigned sleep_s, const std::vector<std::string>& unwritten = {}) {
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    ssd::catch_interrupts(grace);
    for (unsigned slot = 0; slot < unwritten.size(); ++slot)
      ssd::remove_if_forced(ssd::ForcedFile(slot), unwritten[slot]);
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
  // ... and removes the report and state files it created empty (OutputFile
  // in main.cpp), both.
  const std::string report = ssdtest::scratch("unwritten.json"), state = ssdtest::scratch("unwritten.state");
  std::ofstream(report).flush();
  std::ofstream(state).flush();
  ASSERT_EQ(ssd::kForcedReport, 0u);
  ASSERT_EQ(ssd::kForcedState, 1u);
  const Ended e = child(SIGINT, 1, false, 4, {report, state});
  ASSERT_TRUE(WIFSIGNALED(e.status)) << "exited " << WEXITSTATUS(e.status);
  EXPECT_EQ(WTERMSIG(e.status), SIGINT);
  EXPECT_GE(e.seconds, 0.9);
  EXPECT_LT(e.seconds, 3.5);
  EXPECT_FALSE(std::filesystem::exists(report));
  EXPECT_FALSE(std::filesystem::exists(state));
}

TEST(Interrupt, ADriveStateSavedBeforeAForcedEndStays) {
  // As main.cpp: both files made empty and registered. Preconditioning
  // saves the state (drive_checkpoint.cpp clears its slot); then two
  // signals a second apart end the process at once: the report, never
  // written, goes; the saved state stays.
  const std::string report = ssdtest::scratch("late.json"), state = ssdtest::scratch("saved.state");
  std::ofstream(report).flush();
  std::ofstream(state).flush();
  const pid_t pid = fork();
  if (pid == 0) {
    ssd::catch_interrupts(60);
    ssd::remove_if_forced(ssd::kForcedReport, report);
    ssd::remove_if_forced(ssd::kForcedState, state);
    const ssd::Options opts = parse(with(kDrive, {"--precondition=seq-fill", "--save-state", state}));
    ssd::Simulation sim(opts.config());
    sim.run();
    std::raise(SIGINT);
    sleep(2);  // (more than the second in which a repeat counts as the same signal)
    std::raise(SIGINT);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exited " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  EXPECT_FALSE(std::filesystem::exists(report));
  ASSERT_TRUE(std::filesystem::exists(state));
  EXPECT_GT(std::filesystem::file_size(state), 0u);
}

TEST(Interrupt, OnceTheRunStoppedNoGraceRuns) {
  // Writing the report after the run may take as long as it takes.
  const std::string report = ssdtest::scratch("being_written.json");
  std::ofstream(report).flush();
  const Ended e = child(SIGTERM, 1, true, 3, {report});
  ASSERT_TRUE(WIFEXITED(e.status)) << "killed by signal " << WTERMSIG(e.status);
  EXPECT_EQ(WEXITSTATUS(e.status), 0);
  EXPECT_TRUE(std::filesystem::exists(report));
}

}  // namespace interrupt_test

