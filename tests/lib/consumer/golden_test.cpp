// A golden-value test as a user of an installed ssdsim writes it: the
// preset path is relative to SSDSIM_GOLDEN_ROOT (the installed configs).
#include "testing/golden.h"

SSDSIM_GOLDEN_TEST(InstalledPreset,
                   {"--config", "drives/indilinx-barefoot.ini", "--nand.blocks_per_plane=64", "--workload.rw=randread",
                    "--workload.number_ios=500"},
                   "read.iops", 0.01)
