#include <stdexcept>

#include "model/ftl/ftl.h"

namespace ssd::ftl {

FtlRegistry& FtlRegistry::instance() {
  static FtlRegistry r;
  return r;
}

void FtlRegistry::add(const std::string& name, const std::string& description, FtlFactory f) {
  entries_[name] = {description, std::move(f)};
}

std::unique_ptr<Ftl> FtlRegistry::create(const std::string& name, const FtlParams& p, FlashMedia& m) const {
  auto it = entries_.find(name);
  if (it == entries_.end()) {
    std::string known;
    for (const auto& [n, e] : entries_) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown FTL '" + name + "' (known: " + known + ")");
  }
  return it->second.second(p, m);
}

std::map<std::string, std::string> FtlRegistry::list() const {
  std::map<std::string, std::string> out;
  for (const auto& [n, e] : entries_) out[n] = e.first;
  return out;
}

}  // namespace ssd::ftl
