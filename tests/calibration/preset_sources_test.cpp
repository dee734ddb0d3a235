// Every value of a drive preset (configs/drives/*.ini) says where it comes
// from: a datasheet, a review, code, or "inferred" with the arithmetic,
// "fitted" with the figure, "UNVERIFIED" with why (docs/calibration.md).
// This checks the form, not the content: each `key = value` line carries
// its own comment, or is one of a run of value lines right under a comment
// that speaks for the run. A value added with no word on its origin fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model/sim/text.h"

namespace {

// The 1-based numbers of the value lines of `text` that no comment covers.
std::vector<int> unsourced_values(const std::string& text) {
  std::vector<int> bad;
  std::istringstream in(text);
  std::string line;
  bool covered = false;  // the run of value lines we are in sits under a comment
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string t = ssd::text::trim(line);
    if (t.empty() || t[0] == '[') {
      covered = false;  // a blank line or a section ends a comment's run
    } else if (t[0] == '#' || t[0] == ';') {
      covered = true;
    } else if (t.find('=') != std::string::npos) {
      if (t.find('#') == std::string::npos && !covered) bad.push_back(n);
    }
  }
  return bad;
}

TEST(PresetSources, TheCheckFindsAValueWithoutAComment) {
  EXPECT_EQ(unsourced_values("[nand]\n# datasheet\nt_read = 25us\nt_prog = 200us\n"), std::vector<int>{});
  EXPECT_EQ(unsourced_values("[nand]\nt_read = 25us   # datasheet\nt_prog = 200us\n"), std::vector<int>{3});
  EXPECT_EQ(unsourced_values("# a drive\n[nand]\nchannels = 4\n"), std::vector<int>{3});  // a section ends it
  EXPECT_EQ(unsourced_values("[cpu]\n# review\ncores = 1\n\nclock = 1GHz\n"), std::vector<int>{5});  // so does a blank
}

TEST(PresetSources, EveryPresetValueSaysWhereItComesFrom) {
  int presets = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(SSDSIM_ROOT) + "/configs/drives")) {
    if (e.path().extension() != ".ini") continue;
    ++presets;
    std::ifstream f(e.path());
    std::stringstream text;
    text << f.rdbuf();
    for (int n : unsourced_values(text.str()))
      ADD_FAILURE() << e.path().string() << ":" << n << ": a value with no comment saying where it comes from";
  }
  EXPECT_GE(presets, 15);  // the drives of docs/calibration.md
}

}  // namespace
