// Ctrl-C and SIGTERM on the binary (model/sim/interrupt.h): a signal during
// the timed phase still gives the report of what ran, with stop_reason
// "interrupted", and exit status 128 + the signal; one while preconditioning
// gives no report, leaves the report file as it was and no empty state file.
// Each test waits for the progress line of the phase it interrupts (printed
// after 2 s of wall time), so the signal lands where the test means it to,
// whatever the machine's speed.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/model/args.h"
#include "tests/model/cli_util.h"

namespace interrupt_cli_test {

using ssdtest::tmp;
using ssdtest::with;

struct Interrupted {
  int status = -1;  // waitpid's
  bool signalled = false;  // the marker appeared and the signal was sent
  std::string err;  // stderr
};

// Run the simulator with `args`; when a line of its stderr contains
// `marker`, send it `sig`; then read on until it exits. Its stdout goes to
// the file `out` (none: discarded).
Interrupted run_until(const std::vector<std::string>& args, const std::string& marker, int sig,
                      const std::string& out = "/dev/null") {
  Interrupted r;
  int fd[2];
  if (pipe(fd) != 0) return r;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], STDERR_FILENO);
    const int stdout_file = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(stdout_file, STDOUT_FILENO);
    close(fd[0]);
    std::vector<char*> argv{const_cast<char*>(SSDSIM_BIN)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(SSDSIM_BIN, argv.data());
    _exit(127);
  }
  close(fd[1]);
  FILE* in = fdopen(fd[0], "r");
  char line[4096];
  while (std::fgets(line, sizeof line, in)) {
    r.err += line;
    if (!r.signalled && std::string(line).find(marker) != std::string::npos) {
      kill(pid, sig);
      r.signalled = true;
    }
  }
  std::fclose(in);
  waitpid(pid, &r.status, 0);
  return r;
}

const std::vector<std::string> kDrive = {"--nand.channels=4", "--nand.dies_per_channel=2",
                                         "--nand.blocks_per_plane=64", "--nand.pages_per_block=64"};

TEST(InterruptCli, CtrlCInTheTimedPhaseWritesTheReportOfWhatRanAndExits130) {
  const std::string report = tmp("interrupted.json");
  // Unbounded but for a runtime no test waits for: only the signal ends it.
  const Interrupted r = run_until(with(kDrive, {"--precondition=none", "--workload.rw=randrw",
                                                "--workload.number_ios=0", "--workload.runtime=100000s", "--report",
                                                report}),
                                  " s simulated, ", SIGINT);
  ASSERT_TRUE(r.signalled) << r.err;
  ASSERT_TRUE(WIFEXITED(r.status)) << "ended by a signal, not by itself\n" << r.err;
  EXPECT_EQ(WEXITSTATUS(r.status), 128 + SIGINT) << r.err;
  EXPECT_NE(r.err.find("ssdsim: interrupted by SIGINT at "), std::string::npos) << r.err;
  const nlohmann::json j = ssdtest::read_json(report);
  EXPECT_EQ(j["device"]["stop_reason"], "interrupted");
  // The progress line came after 16k IOs at the least.
  EXPECT_GE(j["read"]["total_ios"].get<uint64_t>() + j["write"]["total_ios"].get<uint64_t>(), 16384u);
  EXPECT_LT(j["device"]["simulated_time_ns"].get<uint64_t>(), uint64_t(100000) * 1000000000u);
}

TEST(InterruptCli, JsonOnStdoutStaysJsonAfterCtrlC) {
  // stdout holds the report alone (--output-format=json), as a program
  // reading it expects: no SystemC "Simulation stopped by user." there (nor
  // on stderr, where the simulator's own line says why it stopped).
  const std::string out = tmp("interrupted_stdout.json");
  const Interrupted r = run_until(with(kDrive, {"--precondition=none", "--workload.number_ios=0",
                                                "--workload.runtime=100000s", "--output-format=json"}),
                                  " s simulated, ", SIGINT, out);
  ASSERT_TRUE(r.signalled) << r.err;
  ASSERT_TRUE(WIFEXITED(r.status)) << r.err;
  EXPECT_EQ(WEXITSTATUS(r.status), 128 + SIGINT) << r.err;
  const nlohmann::json j = ssdtest::read_json(out);  // (fails the test if it is not JSON throughout)
  EXPECT_EQ(j["device"]["stop_reason"], "interrupted");
  EXPECT_EQ(r.err.find("Simulation stopped by user."), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ssdsim: interrupted by SIGINT at "), std::string::npos) << r.err;
}

TEST(InterruptCli, SigtermWhilePreconditioningLeavesTheOldReportAndExits143) {
  const std::string report = tmp("kept.json"), state = tmp("never_saved.state");
  std::ofstream(report) << "an earlier run's report\n";
  // A 64 GiB drive whose `used` state takes seconds to write.
  const Interrupted r = run_until({"--nand.channels=8", "--nand.dies_per_channel=4", "--nand.blocks_per_plane=1024",
                                   "--nand.pages_per_block=256", "--precondition=used", "--workload.number_ios=10",
                                   "--report", report, "--save-state", state},
                                  "ssdsim: preconditioning, ", SIGTERM);
  ASSERT_TRUE(r.signalled) << r.err;
  ASSERT_TRUE(WIFEXITED(r.status)) << r.err;
  EXPECT_EQ(WEXITSTATUS(r.status), 128 + SIGTERM) << r.err;
  EXPECT_NE(r.err.find("ssdsim: interrupted by SIGTERM while preconditioning, at page "), std::string::npos) << r.err;
  std::ifstream in(report);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "an earlier run's report\n");
  // The state was to be saved after preconditioning: no empty file instead.
  EXPECT_FALSE(std::filesystem::exists(state));
}

TEST(InterruptCli, ARunThatFailsLeavesNoEmptyReportBehind) {
  // A trace whose second record is malformed: the run stops there, exit 2.
  const std::string trace = tmp("bad.disksim"), report = tmp("never.json");
  std::ofstream(trace) << "0.0 0 0 8 0\nnot a record\n";
  std::string drive;
  for (const std::string& a : kDrive) drive += a + " ";
  const ssdtest::Result r = ssdtest::run(drive + "--trace " + trace + " --trace.format=disksim --report " + report);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_FALSE(std::filesystem::exists(report)) << r.out;
}

}  // namespace interrupt_cli_test

