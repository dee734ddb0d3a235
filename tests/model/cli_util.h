#pragma once
// Run the ssdsim binary (SSDSIM_BIN) and read JSON/CSV outputs, for the
// end-to-end tests.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/model/scratch.h"

namespace ssdtest {

struct Result {
  int code;
  std::string out;  // stdout + stderr
};

inline Result run(const std::string& args) {
  const std::string cmd = std::string(SSDSIM_BIN) + " " + args + " 2>&1";
  Result r{-1, ""};
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Lines the program printed, without the sanitizer runtime's own notes (an
// ASan build that loses track of SystemC's coroutine stacks warns on stderr
// when an exception unwinds; model/sim/sanitizer_stack.h), which are not the
// program's output.
inline long program_lines(const std::string& out) {
  long n = 0;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("==", 0) != 0 && line.find("False positive error reports may follow") == std::string::npos &&
        line.find("github.com/google/sanitizers/issues/189") == std::string::npos)
      ++n;
  return n;
}

inline nlohmann::json read_json(const std::string& path) {
  nlohmann::json j;
  std::ifstream in(path);
  in >> j;
  return j;
}

// Rows of a CSV file, split on commas, header first.
inline std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> row;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) row.push_back(cell);
    rows.push_back(row);
  }
  return rows;
}

// A scratch path of this test process's own (removed when it exits).
inline std::string tmp(const std::string& name) { return scratch(name); }

}  // namespace ssdtest
