// GoogleTest entry point that loads the example FTL plug-in (PLUGIN) first,
// as `ssdsim --ftl.plugin` does, so the parameterised tests over every
// registered FTL (ftl_shadow_test.cpp) include it: GoogleTest expands them
// in InitGoogleTest, after the load.
#include <gtest/gtest.h>
#include <systemc>

#include <cstdio>
#include <cstdlib>

#include "model/ftl/ftl.h"

int sc_main(int argc, char* argv[]) {
  try {
    ssd::ftl::load_plugin(PLUGIN);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);  // read before sc_main runs
  return sc_core::sc_elab_and_sim(argc, argv);
}
