// The controller's cores (model/controller/controller_cpu.h): two firmware
// steps run back to back as one task take exactly the times of the two
// steps run one after the other, on a busy core whose gaps they fill in
// pieces, at a clock whose cycle is not a whole number of picoseconds (each
// step's time is rounded on its own, as two calls round them).
#include <gtest/gtest.h>

#include "model/controller/controller_cpu.h"
#include "model/sim/random.h"

namespace controller_cpu_test {

using sc_core::sc_time;
using sc_core::SC_NS;

ssd::CpuConfig core(uint32_t cores) {
  ssd::CpuConfig c;
  c.cores = cores;
  c.clock = 166e6;  // 6024.096... ps a cycle
  return c;
}

TEST(ControllerCpu, TwoStepsAsOneTaskEndWhenTheStepsOneAfterTheOtherWould) {
  for (uint32_t cores : {1u, 2u}) {
    ssd::ControllerCpu fused(("fused" + std::to_string(cores)).c_str(), core(cores));
    ssd::ControllerCpu apart(("apart" + std::to_string(cores)).c_str(), core(cores));
    ssd::Random rng(7);
    uint64_t two_steps = 0;
    for (int i = 0; i < 2000; ++i) {
      // Work booked at random places over 200 ms (about half of it busy)
      // leaves gaps of every size.
      const sc_time at(double(rng.below(200'000'000)), SC_NS);
      if (rng.below(3) == 0) {
        const uint64_t c = 1 + rng.below(3000);
        ASSERT_EQ(fused.execute(at, c), apart.execute(at, c));
        continue;
      }
      const uint64_t a = rng.below(4) == 0 ? 0 : 1 + rng.below(6000), b = rng.below(4) == 0 ? 0 : 1 + rng.below(9000);
      const sc_time end = fused.execute(at, a, b);
      ASSERT_EQ(end, apart.execute(apart.execute(at, a), b)) << "step " << i << ", " << cores << " cores";
      two_steps += a && b;
    }
    EXPECT_EQ(fused.cycles_run(), apart.cycles_run());
    EXPECT_GT(two_steps, 700u);
  }
}

TEST(ControllerCpu, ATaskGoesToTheCoreOnWhichItStartsFirst) {
  // 100 MHz: 1000 cycles take 10 us. Two cores run two tasks side by side;
  // the third waits for the first free core, and a task that arrives while
  // both are busy takes the one that frees first.
  ssd::CpuConfig c;
  c.cores = 2;
  c.clock = 100e6;
  ssd::ControllerCpu cpu("two_cores", c);
  const sc_time us(1, sc_core::SC_US);
  EXPECT_EQ(cpu.execute(sc_core::SC_ZERO_TIME, 1000), 10 * us);
  EXPECT_EQ(cpu.execute(sc_core::SC_ZERO_TIME, 1000), 10 * us);  // the second core
  EXPECT_EQ(cpu.execute(sc_core::SC_ZERO_TIME, 1000), 20 * us);  // after the first task
  EXPECT_EQ(cpu.execute(5 * us, 500), 15 * us);                   // the core free from 10 us
  // 35 us of work on 2 cores over 20 us.
  EXPECT_DOUBLE_EQ(cpu.utilisation(20 * us), 35.0 / 40.0);
}

}  // namespace controller_cpu_test

