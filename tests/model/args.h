#pragma once
// Command lines for the tests: a test file's drive options, then the ones
// a test adds.
#include <string>
#include <vector>

namespace ssdtest {

// `base` followed by `extra`.
inline std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& extra) {
  base.insert(base.end(), extra.begin(), extra.end());
  return base;
}

}  // namespace ssdtest
