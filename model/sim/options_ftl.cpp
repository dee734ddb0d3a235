// The FTL side of the options: the options registered FTLs declare (merged
// into --help and the key space), plug-in loading, and parsing the selected
// FTL's options by their declared unit.
#include <algorithm>
#include <set>

#include "model/ftl/ftl.h"
#include "model/sim/options.h"

namespace ssd {

namespace {
bool is_core(const std::string& key) {
  const auto& core = core_option_specs();
  return std::any_of(core.begin(), core.end(), [&](const OptionSpec& c) { return c.key == key; });
}
}  // namespace

std::vector<OptionSpec> option_specs() {
  // The core table, with the options the registered FTLs declare after the
  // core ftl.* keys (each once, naming the FTLs that use it).
  const auto& core = core_option_specs();
  std::map<std::string, OptionSpec> declared;
  for (const auto& [name, e] : ftl::FtlRegistry::instance().entries())
    for (const ftl::FtlOptionSpec& o : e.options) {
      auto [it, fresh] = declared.emplace(o.key, OptionSpec{o.key, o.fallback, o.unit, o.help + " [ftl.name=" + name});
      if (!fresh) it->second.help += "|" + name;
    }
  std::vector<OptionSpec> all;
  for (size_t i = 0; i < core.size(); ++i) {
    all.push_back(core[i]);
    const bool last_ftl = core[i].key.rfind("ftl.", 0) == 0 && (i + 1 == core.size() || core[i + 1].key.rfind("ftl.", 0) != 0);
    if (last_ftl)
      for (auto& [k, o] : declared)
        if (std::none_of(core.begin(), core.end(), [&](const OptionSpec& c) { return c.key == k; }))
          all.push_back({o.key, o.fallback, o.unit, o.help + "]"});
  }
  return all;
}

void Options::load_plugins(int argc, const char* const* argv) {
  // Before the command line is parsed: the plug-ins' options must be known
  // to the parser. `--ftl.plugin=PATH` or `--ftl.plugin PATH`, repeatable.
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    std::string path;
    if (a.rfind("--ftl.plugin=", 0) == 0) path = a.substr(13);
    else if (a == "--ftl.plugin" && i + 1 < argc) path = argv[++i];
    else continue;
    try {
      ftl::load_plugin(path);
    } catch (const std::exception& e) {
      throw OptionError("command line: option '--ftl.plugin': " + std::string(e.what()));
    }
  }
}

void Options::build_ftl() {
  SimConfig& c = cfg_;
  const auto& entries = ftl::FtlRegistry::instance().entries();
  const ftl::FtlRegistry::Entry& mine = entries.at(c.ftl_name);
  std::set<std::string> declared;
  for (const ftl::FtlOptionSpec& o : mine.options) {
    declared.insert(o.key);
    if (given(o.key)) c.ftl_options.user_set.insert(o.key);
    if (o.idle_time && given(o.key) && c.idle_after == sc_core::SC_ZERO_TIME)
      throw error(o.key, "only matters with idle-time work: set ftl.idle_after too");
    const std::string& u = o.unit;
    if (u == "count") c.ftl_options.number[o.key] = double(count(o.key, 0, uint64_t(1) << 40));
    else if (u == "size") c.ftl_options.number[o.key] = double(size(o.key));
    else if (u == "fraction") c.ftl_options.number[o.key] = fraction(o.key);
    else if (u == "percent") c.ftl_options.number[o.key] = double(count(o.key, 0, 100)) / 100.0;
    else if (u == "bool") c.ftl_options.number[o.key] = flag(o.key) ? 1.0 : 0.0;
    else if (u == "time") c.ftl_options.number[o.key] = duration(o.key, kMaxRunTime).to_seconds();
    else if (u.find('|') != std::string::npos) {
      std::vector<std::string> allowed;
      for (size_t b = 0, e; b <= u.size(); b = e + 1) allowed.push_back(u.substr(b, (e = std::min(u.find('|', b), u.size())) - b));
      c.ftl_options.text[o.key] = choice(o.key, allowed);
    } else {
      throw std::logic_error("FTL '" + c.ftl_name + "' declares option '" + o.key + "' with unknown unit '" + u + "'");
    }
  }
  // An option of another FTL, set by the user, would be silently ignored.
  for (const auto& [name, e] : entries)
    for (const ftl::FtlOptionSpec& o : e.options)
      if (!declared.count(o.key) && !is_core(o.key) && given(o.key)) {
        std::string users;
        for (const auto& [n2, e2] : entries)
          for (const ftl::FtlOptionSpec& o2 : e2.options)
            if (o2.key == o.key) users += (users.empty() ? "" : "|") + n2;
        throw error(o.key, "applies to ftl.name=" + users + ", not '" + c.ftl_name + "'");
      }
}

}  // namespace ssd
