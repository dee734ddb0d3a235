#include <dlfcn.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "model/ftl/ftl.h"

namespace ssd::ftl {

FtlRegistry& FtlRegistry::instance() {
  static FtlRegistry r;
  return r;
}

void FtlRegistry::add(const std::string& name, const std::string& description, FtlFactory f,
                      std::vector<FtlOptionSpec> options, FtlTableBytes table_bytes) {
  // A plug-in's mistakes surface here, at load, rather than when its FTL is chosen.
  if (entries_.count(name)) throw std::logic_error("an FTL named '" + name + "' is already registered");
  static const char* const units[] = {"count", "size", "fraction", "percent", "bool", "time"};
  for (const FtlOptionSpec& o : options) {
    if (o.key.rfind("ftl.", 0) != 0)
      throw std::logic_error("FTL '" + name + "' declares option '" + o.key + "' outside ftl.*");
    if (std::find(std::begin(units), std::end(units), o.unit) == std::end(units) && o.unit.find('|') == std::string::npos)
      throw std::logic_error("FTL '" + name + "' declares option '" + o.key + "' with unknown unit '" + o.unit + "'");
  }
  entries_[name] = {description, std::move(f), std::move(options), std::move(table_bytes)};
}

std::unique_ptr<Ftl> FtlRegistry::create(const std::string& name, const FtlParams& p, FlashMedia& m) const {
  auto it = entries_.find(name);
  if (it == entries_.end()) {
    std::string known;
    for (const auto& [n, e] : entries_) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown FTL '" + name + "' (known: " + known + ")");
  }
  return it->second.factory(p, m);
}

std::optional<uint64_t> FtlRegistry::table_bytes(const std::string& name, const FtlParams& p) const {
  auto it = entries_.find(name);
  if (it == entries_.end() || !it->second.table_bytes) return std::nullopt;
  return it->second.table_bytes(p);
}

std::map<std::string, std::string> FtlRegistry::list() const {
  std::map<std::string, std::string> out;
  for (const auto& [n, e] : entries_) out[n] = e.description;
  return out;
}

void load_plugin(const std::string& path) {
  // RTLD_NOW: an unresolved symbol is reported here, not mid-run. The
  // library stays loaded for the life of the process (its FTLs may be used).
  if (path.empty()) throw std::runtime_error("no FTL plug-in file given");
  // A name without a slash is a file here, as the option says, not a name
  // for dlopen to look up in the library search path.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  void* lib = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) throw std::runtime_error(path + ": cannot load FTL plug-in: " + dlerror());
  auto api = reinterpret_cast<int (*)()>(dlsym(lib, "ssdsim_ftl_plugin_api"));
  auto reg = reinterpret_cast<void (*)(FtlRegistry&)>(dlsym(lib, "ssdsim_ftl_plugin_register"));
  if (!api || !reg)
    throw std::runtime_error(path + ": not an ssdsim FTL plug-in (no ssdsim_ftl_plugin_api/_register entry point; "
                                    "see SSDSIM_FTL_PLUGIN in model/ftl/ftl.h)");
  if (api() != kFtlApiVersion)
    throw std::runtime_error(path + ": FTL plug-in built for API version " + std::to_string(api()) +
                             ", this ssdsim has version " + std::to_string(kFtlApiVersion) + " (rebuild it)");
  const size_t before = FtlRegistry::instance().entries().size();
  try {
    reg(FtlRegistry::instance());
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": FTL plug-in failed to register: " + e.what());
  }
  if (FtlRegistry::instance().entries().size() == before)
    throw std::runtime_error(path + ": FTL plug-in registered no FTL");
}

}  // namespace ssd::ftl
