#pragma once
// Scratch files for the tests: every path is in one directory private to
// this test process (ctest runs each case in a process of its own, and other
// checkouts' test runs may share the temp directory), removed with all it
// holds when the process exits, so repeated test runs leave nothing behind.
// A failed test keeps it, and says where, for a look at what it wrote.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

namespace ssdtest {

class ScratchDir {
 public:
  ScratchDir() : path_(testing::TempDir() + "ssdsim-test-" + std::to_string(getpid())) {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);  // a dead process's, of the same pid
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    const testing::UnitTest* t = testing::UnitTest::GetInstance();
    if (t->Failed()) {
      std::fprintf(stderr, "test files kept in %s\n", path_.c_str());
      return;
    }
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// `name` in this process's scratch directory.
inline std::string scratch(const std::string& name) {
  static const ScratchDir dir;  // destroyed at exit, before gtest's own state
  return dir.path() + "/" + name;
}

}  // namespace ssdtest
