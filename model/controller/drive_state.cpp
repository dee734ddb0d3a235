#include "model/controller/drive_state.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "model/sim/text.h"
#include "model/sim/units.h"

namespace ssd {
namespace {

using text::split;
using text::trim;

// "0.25x" (a multiple of the capacity) or a size ("8g").
void amount(StatePhase& p, const std::string& a, const std::string& where) {
  if (!a.empty() && a.back() == 'x') {
    size_t used = 0;
    double m = 0;
    try {
      m = std::stod(a.substr(0, a.size() - 1), &used);
    } catch (...) {
      used = 0;
    }
    if (used != a.size() - 1 || !(m > 0) || m > 1000)
      throw std::invalid_argument(where + "phase '" + p.text + "': amount '" + a + "' (a multiple from 0 to 1000x)");
    p.multiple = m;
    return;
  }
  const std::string why = units::parse_size(a, p.bytes);
  if (!why.empty()) throw std::invalid_argument(where + "phase '" + p.text + "': amount '" + a + "': " + why);
  if (p.bytes == 0) throw std::invalid_argument(where + "phase '" + p.text + "': amount must be above 0");
}

uint64_t block_size(const StatePhase& p, const std::string& s, const std::string& where) {
  uint64_t bs = 0;
  const std::string why = units::parse_size(s, bs);
  if (!why.empty()) throw std::invalid_argument(where + "phase '" + p.text + "': size '" + s + "': " + why);
  if (bs == 0 || bs > (1ull << 30)) throw std::invalid_argument(where + "phase '" + p.text + "': size from 1 B to 1 GiB");
  return bs;
}

}  // namespace

DriveState DriveState::parse(const std::string& list, const std::string& where) {
  DriveState st;
  st.name = list;
  for (const std::string& text : split(list, ',')) {
    // (Two commas in a row, or one at an end: a phase left out by mistake,
    // not one to skip.)
    if (text.empty()) throw std::invalid_argument(where + "empty phase in '" + list + "'");
    StatePhase p;
    p.text = text;
    const std::vector<std::string> f = split(text, ':');
    const std::string& k = f[0];
    const auto arity = [&](size_t lo, size_t hi) {
      if (f.size() < lo || f.size() > hi)
        throw std::invalid_argument(where + "phase '" + text + "': expected " +
                                    (lo == hi ? std::to_string(lo - 1) : std::to_string(lo - 1) + "-" +
                                                                               std::to_string(hi - 1)) +
                                    " argument(s)");
    };
    if (k == "secure-erase") {
      arity(1, 1);
      p.kind = StatePhase::Kind::SecureErase;
    } else if (k == "fill") {
      arity(1, 3);
      p.kind = StatePhase::Kind::Fill;
      if (f.size() >= 2) p.bs = block_size(p, f[1], where);
      if (f.size() == 3) amount(p, f[2], where);
      if (p.multiple > 1)  // (an amount in bytes is checked against the drive's capacity when applied)
        throw std::invalid_argument(where + "phase '" + text + "': a fill writes each LBA once: at most 1x");
    } else if (k == "randwrite") {
      arity(3, 3);
      p.kind = StatePhase::Kind::RandWrite;
      p.bs = block_size(p, f[1], where);
      amount(p, f[2], where);
    } else if (k == "image") {
      arity(2, 2);
      p.kind = StatePhase::Kind::Image;
      amount(p, f[1], where);
    } else if (k == "trim") {
      arity(2, 2);
      if (f[1] != "all") throw std::invalid_argument(where + "phase '" + text + "': trim takes 'all'");
      p.kind = StatePhase::Kind::TrimAll;
    } else if (k == "idle") {
      arity(2, 2);
      p.kind = StatePhase::Kind::Idle;
      const std::string why = units::parse_seconds(f[1], p.idle_s);
      if (!why.empty()) throw std::invalid_argument(where + "phase '" + text + "': " + why);
      if (!(p.idle_s > 0) || p.idle_s > 1e6) throw std::invalid_argument(where + "phase '" + text + "': 0 to 1e6 s");
    } else if (k == "steady") {
      arity(1, 1);
      p.kind = StatePhase::Kind::Steady;
    } else if (k == "trace") {
      // The rest is the path (it may hold ':'; a ',' ends the phase).
      p.kind = StatePhase::Kind::Trace;
      p.path = trim(text.substr(text.find(':') + 1));
      if (f.size() < 2 || p.path.empty()) throw std::invalid_argument(where + "phase '" + text + "': trace:FILE");
      std::error_code ec;
      if (!std::filesystem::exists(p.path, ec) && !std::filesystem::exists(p.path + ".blktrace.0", ec))
        throw std::invalid_argument(where + "phase '" + text + "': " + p.path + ": no such file");
    } else {
      throw std::invalid_argument(where + "unknown phase '" + text +
                                  "' (secure-erase, fill[:BS[:AMOUNT]], randwrite:BS:AMOUNT, image:AMOUNT, trim:all, "
                                  "idle:TIME, steady, trace:FILE)");
    }
    st.phases.push_back(p);
  }
  return st;
}

DriveState DriveState::resolve(const std::string& arg) {
  namespace fs = std::filesystem;
  std::string path;
  if (arg.find_first_of(",:") == std::string::npos) {
    if (fs::is_regular_file(arg)) {
      path = arg;
    } else {
      // A name: configs/states/NAME.ini next to the binary (build tree or
      // install prefix), in the sources it was built from (a build tree
      // anywhere: cmake -B /elsewhere), or under the working directory.
      std::error_code ec;
      const fs::path exe = fs::read_symlink("/proc/self/exe", ec).parent_path();
      for (const fs::path& dir : {exe / ".." / "configs" / "states", exe / ".." / "share" / "ssdsim" / "configs" / "states",
#ifdef SSDSIM_CONFIGS_DIR
                                  fs::path(SSDSIM_CONFIGS_DIR) / "states",
#endif
                                  fs::path("configs") / "states"})
        if (fs::is_regular_file(dir / (arg + ".ini"))) {
          path = (dir / (arg + ".ini")).string();
          break;
        }
    }
  }
  if (path.empty()) {
    if (arg == "new") return DriveState{"new", {}};  // built in: nothing written
    if (arg.find_first_of(",:") == std::string::npos && arg != "secure-erase" && arg != "fill" && arg != "steady" &&
        !trim(arg).empty())
      throw std::invalid_argument("'" + arg + "' is neither a state file, a state under configs/states (new, fill, " +
                                  "used-anthology, torture) nor a phase list");
    DriveState st = parse(arg, "");
    if (st.phases.empty()) throw std::invalid_argument("'" + arg + "' lists no phases (a new drive: --state new)");
    return st;
  }
  // A state file: `phases = a, b, c` (comments with #), under [state].
  std::string content;
  if (const std::string why = text::read_user_file(path, "", content); !why.empty())
    throw std::invalid_argument(path + ": " + (why == "cannot open" ? "cannot read" : why));
  std::istringstream in(content);
  std::string phases;
  int n = 0, at = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    const auto hash = line.find('#');
    line = trim(hash == std::string::npos ? line : line.substr(0, hash));
    if (line.empty() || line == "[state]") continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos || trim(line.substr(0, eq)) != "phases")
      throw std::invalid_argument(path + ":" + std::to_string(n) + ": expected 'phases = LIST' under [state]");
    if (at) throw std::invalid_argument(path + ":" + std::to_string(n) + ": 'phases' again (first on line " +
                                        std::to_string(at) + ")");
    phases = trim(line.substr(eq + 1));
    at = n;
  }
  if (!at) throw std::invalid_argument(path + ": no 'phases = LIST' (a new drive: --state new)");
  DriveState st = parse(phases, path + ":" + std::to_string(at) + ": ");
  st.name = fs::path(path).stem().string();
  return st;
}

DriveState DriveState::precondition(const std::string& name, double overwrite) {
  DriveState st;
  st.name = name;
  if (name == "none") return st;
  st.phases.push_back({StatePhase::Kind::Fill, "fill"});
  if (name == "used") {
    std::ostringstream text;
    text << "randwrite:4k:" << overwrite << "x";
    StatePhase p{StatePhase::Kind::RandWrite, text.str()};
    p.bs = 0;  // page by page: today's `used`, bit for bit
    p.multiple = overwrite;
    st.phases.push_back(p);
  }
  return st;
}

}  // namespace ssd
