// GoogleTest entry point for tests that link SystemC: libsystemc provides
// main() and calls sc_main(). SystemC elaborates once per process, so every
// simulation test must run in its own process; ctest does that (one ctest
// test per gtest case, via gtest_discover_tests).
#include <gtest/gtest.h>
#include <systemc>

#include <cstdlib>

int sc_main(int argc, char* argv[]) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);  // read before sc_main runs
  return sc_core::sc_elab_and_sim(argc, argv);
}
