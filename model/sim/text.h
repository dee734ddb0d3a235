#pragma once
// Text helpers shared by the readers of what users write (options, config
// and fio job files, state recipes): one definition each, so every reader
// agrees on what a blank is and what an empty list item is.

#include <algorithm>
#include <cstdio>
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

// Bytes that would garble a terminal (binary or UTF-16 lines) are shown as
// \xNN, and a long echo is cut: an error message stays one line.
inline std::string printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (out.size() > 80) return out + "...";
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  return out;
}

// The most a config, fio job or state file may hold. Such files are a few
// KiB; the bound is there so that a device named by mistake (/dev/zero, a
// pipe that never ends) is refused instead of read forever into memory.
constexpr size_t kMaxUserFileBytes = size_t(4) << 20;

// Read the whole of a file the user names, with stdio so that a read error
// (e.g. /proc/self/mem) is told apart from an empty file; a UTF-8 byte-order
// mark is dropped. Empty on success, else why not, said of `what` (e.g.
// "config file"; "" for the bare reason): "cannot open WHAT", "cannot read
// WHAT", "WHAT larger than 4 MiB" or "WHAT is UTF-16 text (...)".
inline std::string read_user_file(const std::string& path, const std::string& what, std::string& content) {
  const std::string of = what.empty() ? "" : " " + what, it = what.empty() ? "" : what + " ";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return "cannot open" + of;
  content.clear();
  char buf[65536];
  bool large = false;
  for (size_t n; !large && (n = std::fread(buf, 1, sizeof buf, f)) > 0;) {
    large = content.size() + n > kMaxUserFileBytes;
    if (!large) content.append(buf, n);
  }
  const bool failed = std::ferror(f);
  std::fclose(f);
  if (large) return it + "larger than " + std::to_string(kMaxUserFileBytes >> 20) + " MiB";
  if (failed) return "cannot read" + of;
  // Editors on Windows start UTF-8 with a byte-order mark, which would make
  // the first line unreadable; UTF-16 cannot be read at all.
  if (content.compare(0, 3, "\xEF\xBB\xBF") == 0) content.erase(0, 3);
  if (content.compare(0, 2, "\xFF\xFE") == 0 || content.compare(0, 2, "\xFE\xFF") == 0)
    return it + "is UTF-16 text (save it as UTF-8)";
  return "";
}

// Close a file written with stdio: false if any write to it failed. The
// last flush is fclose()'s to report, an earlier failure only the stream's
// error flag keeps (a log larger than its buffer on a full disk), so the
// flag is read first.
inline bool close_written(std::FILE* f) {
  const bool failed = std::ferror(f) != 0;
  return std::fclose(f) == 0 && !failed;
}

}  // namespace ssd::text
