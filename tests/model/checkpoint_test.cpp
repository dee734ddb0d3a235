// Drive-state checkpoints (--save-state / --load-state, model/sim/
// drive_checkpoint.h): a loaded state gives the timed phase bit for bit what
// the state it was saved from gave; timing parameters may change between
// save and load, the drive may not; damaged files and conflicting options
// are refused in one line, exit 2 (an FTL without checkpoints: plugin_cli_test).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "tests/model/cli_util.h"

namespace checkpoint_test {

using ssdtest::read_json;
using ssdtest::run;
using ssdtest::tmp;

const std::string kDrive =
    "--nand.channels=2 --nand.dies_per_channel=2 --nand.planes_per_die=1 --nand.blocks_per_plane=128 "
    "--nand.pages_per_block=64 --ftl.op=0.25 --workload.rw=randrw --workload.number_ios=3000 --log-level=off "
    "--check.content=true --seed=9 ";

nlohmann::json sim(const std::string& args) {
  const std::string rep = tmp("ckpt.json");
  const auto r = run(kDrive + args + " --report " + rep);
  EXPECT_EQ(r.code, 0) << args << ": " << r.out;
  return read_json(rep);
}

void expect_same_run(const nlohmann::json& a, const nlohmann::json& b) {
  for (const char* k : {"read", "write"}) EXPECT_EQ(a[k], b[k]) << k;
  EXPECT_EQ(a["device"]["write_amplification"], b["device"]["write_amplification"]);
  EXPECT_EQ(a["device"]["erase_count"], b["device"]["erase_count"]);
  EXPECT_EQ(a["state"]["phases"], b["state"]["phases"]);  // what the saved state's phases did, carried over
}

class Checkpoint : public ::testing::TestWithParam<std::string> {};

TEST_P(Checkpoint, LoadedStateRunsBitForBitAsTheStateItWasSavedFrom) {
  const std::string file = tmp("state-" + GetParam() + ".bin"), ftl = GetParam();
  const std::string extra = ftl == "raid" ? "--raid.members=2 --raid.stripe=16k" : "--ftl.name=" + ftl;
  const auto saved = sim(extra + " --state used-anthology --save-state " + file);
  const auto loaded = sim(extra + " --load-state " + file);
  expect_same_run(saved, loaded);
  EXPECT_EQ(loaded["state"]["name"], "used-anthology (loaded from " + file + ")");
  EXPECT_EQ(loaded["device"]["content_check"]["pages_checked"], saved["device"]["content_check"]["pages_checked"]);
}
INSTANTIATE_TEST_SUITE_P(Ftls, Checkpoint, ::testing::Values("page", "dftl", "block", "bast", "fast", "raid"));

TEST(CheckpointCli, TimingParametersMayChangeBetweenSaveAndLoad) {
  const std::string file = tmp("state-timing.bin");
  const auto saved = sim("--state torture --save-state " + file);
  const auto slower = sim("--load-state " + file + " --nand.t_prog=2ms");
  EXPECT_EQ(slower["device"]["write_amplification"], saved["device"]["write_amplification"]);  // same state, same GC
  EXPECT_LT(slower["write"]["iops"].get<double>(), saved["write"]["iops"].get<double>());        // slower programs
}

TEST(CheckpointCli, AnotherDriveIsRefusedNamingTheFirstDifference) {
  const std::string file = tmp("state-drive.bin");
  sim("--state fill --save-state " + file);
  for (const auto& [extra, named] : std::vector<std::pair<std::string, std::string>>{
           {"--nand.blocks_per_plane=256", "256 blocks"},
           {"--ftl.gc.policy=fifo", "ftl.gc.policy=fifo"},
           {"--ftl.op=0.3", "ftl.op=0.3"},
           {"--check.content=false", "check.content=0"},
           {"--controller.trim=false", "controller.trim=0"}}) {
    const auto r = run(kDrive + "--load-state " + file + " " + extra);
    EXPECT_EQ(r.code, 2) << extra << ": " << r.out;
    EXPECT_NE(r.out.find("'--load-state'"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(named), std::string::npos) << r.out;
    EXPECT_EQ(ssdtest::program_lines(r.out), 1) << r.out;
  }
}

TEST(CheckpointCli, DamagedFilesAreRefused) {
  const std::string file = tmp("state-good.bin");
  sim("--state torture --save-state " + file);
  std::ifstream in(file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x20;
  std::string damaged_description = bytes;
  const size_t op = damaged_description.find("ftl.op=");
  ASSERT_NE(op, std::string::npos);
  damaged_description[op + 3] = '\xff';
  for (const auto& [name, content, why] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"truncated", bytes.substr(0, bytes.size() / 3), "ends early"},
           {"flipped", flipped, "checksum"},
           {"longer", bytes + "x", "after the end"},
           {"not-a-state", "hello, I am a text file that is long enough to hold a header\n", "not an ssdsim drive state"},
           // A byte of the drive's description damaged: named, not echoed raw.
           {"description", damaged_description, "saved from another drive: '"}}) {
    const std::string f = tmp("state-" + name + ".bin");
    std::ofstream(f, std::ios::binary) << content;
    const auto r = run(kDrive + "--load-state " + f);
    EXPECT_EQ(r.code, 2) << name << ": " << r.out;
    EXPECT_NE(r.out.find(why), std::string::npos) << name << ": " << r.out;
    EXPECT_EQ(ssdtest::program_lines(r.out), 1) << r.out;
    EXPECT_EQ(r.out.find('\xff'), std::string::npos) << name << ": raw bytes in " << r.out;
  }
}

// A path that is no checkpoint file at all says why, not "ends early".
TEST(CheckpointCli, PathsThatAreNoFileAreRefused) {
  const std::string dir = tmp("state-dir");
  std::filesystem::create_directories(dir);
  for (const auto& [path, why] : std::vector<std::pair<std::string, std::string>>{
           {tmp("no-such-dir") + "/x.bin", "cannot open (No such file or directory)"},
           {dir, "is a directory, not a checkpoint"}}) {
    const auto r = run(kDrive + "--load-state " + path);
    EXPECT_EQ(r.code, 2) << path << ": " << r.out;
    EXPECT_NE(r.out.find(path + ": " + why), std::string::npos) << r.out;
    EXPECT_EQ(ssdtest::program_lines(r.out), 1) << r.out;
  }
}

TEST(CheckpointCli, ConflictsAndFtlsWithoutCheckpointsAreRefused) {
  const std::string file = tmp("state-c.bin");
  sim("--state fill --save-state " + file);
  for (const std::string& bad : {"--load-state " + file + " --state fill", "--load-state " + file + " --precondition=used",
                                 "--load-state " + file + " --save-state " + tmp("x.bin"),
                                 "--load-state " + file + " --state.threads=2",
                                 "--load-state " + tmp("missing.bin")}) {
    const auto r = run(kDrive + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
    EXPECT_NE(r.out.find("'--load-state'"), std::string::npos) << r.out;
  }
  // (An FTL without checkpoints: the plug-in test, PluginCli.)
  auto r = run(kDrive + "--state fill --save-state /nonexistent-dir/s.bin");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("'--save-state'"), std::string::npos) << r.out;
}

}  // namespace checkpoint_test

