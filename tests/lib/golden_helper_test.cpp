// The golden-value helper itself (testing/golden.h), against a stand-in
// simulator that writes a report we choose: metric lookup, the tolerance,
// and each way a golden file can be missing, stale or out of date.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "testing/golden.h"

namespace golden_helper_test {

using nlohmann::json;
namespace golden = ssdsim::golden;

// A directory of our own, the stand-in simulator and the report it copies.
std::string dir() {
  static const std::string d = testing::TempDir() + "golden_helper_" + std::to_string(getpid());
  return d;
}
std::string test_file() { return dir() + "/fake_test.cpp"; }  // golden files go next to it
std::string golden_file(const std::string& name) { return dir() + "/" + name + ".golden.json"; }

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

class GoldenHelper : public testing::Test {
 protected:
  void SetUp() override {
    mkdir(dir().c_str(), 0755);
    // Copies $FAKE_REPORT to the path after --report.
    write(dir() + "/fake-ssdsim",
          "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = --report ] && cp \"$FAKE_REPORT\" \"$2\"; shift; done\n");
    chmod((dir() + "/fake-ssdsim").c_str(), 0755);
    setenv("SSDSIM_BIN", (dir() + "/fake-ssdsim").c_str(), 1);
    setenv("FAKE_REPORT", (dir() + "/report.json").c_str(), 1);
    unsetenv("SSDSIM_UPDATE_GOLDEN");
    std::remove(golden_file("T").c_str());
    report(1000.0);
  }
  void TearDown() override { std::filesystem::remove_all(dir()); }
  static void report(double iops) {
    write(dir() + "/report.json",
          json{{"read", {{"iops", iops}, {"lat_ns", {{"percentile", {{"99.000000", 7}}}}}}}}.dump());
  }
  static void record(double iops) {
    write(golden_file("T"), json{{"args", {"--x"}}, {"metrics", {{"read.iops", iops}}}}.dump());
  }
  static void run(const std::vector<std::string>& args = {"--x"}) {
    golden::check("T", golden::Where{test_file().c_str(), 1}, args, "read.iops", 0.02);
  }
};

TEST(GoldenLookup, DottedPathsPointersAndKeysWithDots) {
  const json r{{"read", {{"iops", 5}, {"lat_ns", {{"percentile", {{"99.000000", 7}}}}}}}};
  ASSERT_NE(golden::detail::lookup(r, "read.iops"), nullptr);
  EXPECT_EQ(*golden::detail::lookup(r, "read.iops"), 5);
  EXPECT_EQ(*golden::detail::lookup(r, "read.lat_ns.percentile.99.000000"), 7);
  EXPECT_EQ(*golden::detail::lookup(r, "/read/lat_ns/percentile/99.000000"), 7);
  EXPECT_EQ(golden::detail::lookup(r, "read.iop"), nullptr);
  EXPECT_EQ(golden::detail::lookup(r, "write.iops"), nullptr);
  EXPECT_EQ(golden::detail::lookup(r, "/read/nope"), nullptr);
}

TEST_F(GoldenHelper, WithinTolerancePasses) {
  record(1019.0);  // 1000 is 1.9 % below
  run();
}

TEST_F(GoldenHelper, BeyondToleranceFailsAndSaysHowToUpdate) {
  record(1021.0);  // 1000 is 2.06 % below
  EXPECT_NONFATAL_FAILURE(run(), "SSDSIM_UPDATE_GOLDEN=1");
  EXPECT_NONFATAL_FAILURE(run(), "read.iops = 1000.0, golden 1021.0");
}

TEST_F(GoldenHelper, MissingFileFails) { EXPECT_NONFATAL_FAILURE(run(), "is missing"); }

TEST_F(GoldenHelper, MissingMetricFails) {
  write(golden_file("T"), json{{"args", {"--x"}}, {"metrics", json::object()}}.dump());
  EXPECT_NONFATAL_FAILURE(run(), "has no golden value of 'read.iops'");
}

TEST_F(GoldenHelper, OtherArgumentsFail) {
  record(1000.0);
  EXPECT_NONFATAL_FAILURE(run({"--y"}), "recorded with other arguments");
}

TEST_F(GoldenHelper, ASimulatorErrorFails) {
  record(1000.0);
  setenv("SSDSIM_BIN", "/bin/false", 1);
  EXPECT_NONFATAL_FAILURE(run(), "ssdsim failed (exit status 1)");
}

TEST_F(GoldenHelper, UpdateModeRecordsThenChecks) {
  setenv("SSDSIM_UPDATE_GOLDEN", "1", 1);
  run();  // no file yet: records, passes
  json g;
  std::ifstream(golden_file("T")) >> g;
  EXPECT_EQ(g["args"], json({"--x"}));
  EXPECT_EQ(g["metrics"]["read.iops"], 1000.0);
  report(1500.0);
  run();  // moved by 50 %: recorded again
  unsetenv("SSDSIM_UPDATE_GOLDEN");
  run();  // and now it holds
  report(1000.0);
  EXPECT_NONFATAL_FAILURE(run(), "golden 1500.0");
}

}  // namespace golden_helper_test

