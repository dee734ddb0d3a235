#include "tests/calibration/figure_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "model/sim/text.h"

namespace calib {
using ssd::text::trim;

std::vector<Figure> load_figures(const std::string& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".ini") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<Figure> out;
  for (const auto& path : files) {
    std::ifstream in(path);
    const std::string drive = path.stem().string();
    int n = 0;
    for (std::string raw; std::getline(in, raw);) {
      ++n;
      const auto hash = raw.find('#');
      const std::string line = trim(hash == std::string::npos ? raw : raw.substr(0, hash));
      if (line.empty()) continue;
      const std::string where = path.string() + ":" + std::to_string(n) + ": ";
      if (line.front() == '[') {
        if (line.back() != ']') throw std::runtime_error(where + "section header without ']'");
        out.push_back(Figure{drive, trim(line.substr(1, line.size() - 2)), path.string(), n, {}});
        continue;
      }
      const auto eq = line.find('=');
      if (eq == std::string::npos) throw std::runtime_error(where + "expected KEY = VALUE");
      if (out.empty() || out.back().file != path.string()) throw std::runtime_error(where + "key before any section");
      const std::string key = trim(line.substr(0, eq));
      // (A misspelt key would otherwise be a check silently not made.)
      static const std::vector<std::string> known = {"source",    "state",     "options",  "job",
                                                     "metric",    "published", "tolerance", "at_least",
                                                     "at_most",   "ratio_to",  "reference", "preset"};
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        std::string list;
        for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
        throw std::runtime_error(where + "unknown key '" + key + "' (" + list + ")");
      }
      if (!out.back().keys.emplace(key, trim(line.substr(eq + 1))).second)
        throw std::runtime_error(where + "'" + key + "' given twice in [" + out.back().name + "]");
    }
  }
  return out;
}

std::string drive_state(const std::string& state) {
  // The shipped drive states (configs/states, docs/states.md): `used` is the
  // reviews' used drive (a 128 KiB fill, then an OS/application image).
  if (state == "none") return "";  // a hard disk: no drive state
  if (state == "new" || state == "fill" || state == "torture") return "--state " + state;
  if (state == "used") return "--state used-anthology";
  // An inline recipe of phases (docs/states.md), e.g. `fill, randwrite:4k:1x,
  // trim:all`: passed on as it is, quoted for the shell the harness runs.
  if (state.find_first_of(",:") != std::string::npos) {
    if (state.find('\'') != std::string::npos) throw std::runtime_error("state '" + state + "': a quote in a recipe");
    return "--state '" + state + "'";
  }
  throw std::runtime_error("unknown state '" + state +
                           "' (new, fill, used, torture, a recipe of phases; none for a hard disk)");
}

}  // namespace calib
