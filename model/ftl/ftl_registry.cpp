#include <dlfcn.h>

#include <stdexcept>

#include "model/ftl/ftl.h"

namespace ssd::ftl {

FtlRegistry& FtlRegistry::instance() {
  static FtlRegistry r;
  return r;
}

void FtlRegistry::add(const std::string& name, const std::string& description, FtlFactory f,
                      std::vector<FtlOptionSpec> options) {
  for (const FtlOptionSpec& o : options)
    if (o.key.rfind("ftl.", 0) != 0)
      throw std::logic_error("FTL '" + name + "' declares option '" + o.key + "' outside ftl.*");
  entries_[name] = {description, std::move(f), std::move(options)};
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

std::map<std::string, std::string> FtlRegistry::list() const {
  std::map<std::string, std::string> out;
  for (const auto& [n, e] : entries_) out[n] = e.description;
  return out;
}

void load_plugin(const std::string& path) {
  // RTLD_NOW: an unresolved symbol is reported here, not mid-run. The
  // library stays loaded for the life of the process (its FTLs may be used).
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) throw std::runtime_error(path + ": cannot load FTL plug-in: " + dlerror());
  auto api = reinterpret_cast<int (*)()>(dlsym(lib, "ssdsim_ftl_plugin_api"));
  auto reg = reinterpret_cast<void (*)(FtlRegistry&)>(dlsym(lib, "ssdsim_ftl_plugin_register"));
  if (!api || !reg)
    throw std::runtime_error(path + ": not an ssdsim FTL plug-in (no ssdsim_ftl_plugin_api/_register entry point; "
                                    "see SSDSIM_FTL_PLUGIN in model/ftl/ftl.h)");
  if (api() != kFtlApiVersion)
    throw std::runtime_error(path + ": FTL plug-in built for API version " + std::to_string(api()) +
                             ", this ssdsim has version " + std::to_string(kFtlApiVersion) + " (rebuild it)");
  reg(FtlRegistry::instance());
}

}  // namespace ssd::ftl
