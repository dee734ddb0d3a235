#pragma once
// Text helpers shared by the readers of what users write (options, config
// and fio job files, state recipes): one definition each, so every reader
// agrees on what a blank is and what an empty list item is.

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace ssd::text {

// `s` without spaces, tabs and carriage returns at either end.
inline std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The trimmed items of `s` between `sep`s, empty ones kept (a final `sep`
// too, whose empty item getline alone drops): each item's own check then
// refuses them rather than the list silently losing one.
inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> items;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);) items.push_back(trim(item));
  if (!s.empty() && s.back() == sep) items.emplace_back();
  return items;
}

// Letters to insert, delete or change to turn `a` into `b` (Levenshtein):
// how close a misspelt name is to a known one.
inline size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace ssd::text
