// A plug-in built for an API version this ssdsim does not have: the loader
// must refuse it before calling its registration.
#include <cstdlib>

namespace ssd::ftl {
class FtlRegistry;
}

extern "C" int ssdsim_ftl_plugin_api() { return 999; }
extern "C" void ssdsim_ftl_plugin_register(ssd::ftl::FtlRegistry&) { std::abort(); }  // never called
