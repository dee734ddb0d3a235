// Golden timing of the drive presets (configs/*.ini) on short workloads: a
// change that moves one of these numbers by more than its tolerance fails
// here until the new values are recorded (scripts/update-golden). See
// docs/testing.md. Each run is a few thousand IOs (under 1.5 s).
#include "testing/golden.h"

// Random 4 KiB reads at QD32 are die-bound: 40 dies at tR = 50 us.
SSDSIM_GOLDEN_TEST(X25mRandReadQd32,
                   {"--config", "configs/drives/intel-x25m-g1.ini", "--workload.rw=randread", "--workload.bs=4k",
                    "--workload.iodepth=32", "--workload.number_ios=4000"},
                   {"read.iops", "read.lat_ns.mean", "read.lat_ns.percentile.99.000000"}, 0.01)

// The era's QD3 random-write test, shortened: the small write-aggregation
// buffer in front of tPROG sets the latency.
SSDSIM_GOLDEN_TEST(X25mRandWriteQd3,
                   {"--config", "configs/drives/intel-x25m-g1.ini", "--config",
                    "configs/workloads/iometer-4k-random-write-qd3.ini", "--workload.runtime=0",
                    "--workload.number_ios=3000"},
                   {"write.iops", "write.lat_ns.mean"}, 0.01)

// Sequential 2 MiB reads at QD1: channel- and link-bound bandwidth.
SSDSIM_GOLDEN_TEST(BarefootSeqRead2m,
                   {"--config", "configs/drives/indilinx-barefoot.ini", "--config",
                    "configs/workloads/iometer-2m-seq-read.ini", "--workload.runtime=0", "--workload.number_ios=200"},
                   {"read.bw_bytes", "read.lat_ns.mean"}, 0.01)

// Mixed random IO on a used drive: GC and write amplification included.
SSDSIM_GOLDEN_TEST(GenericMlcUsedRandRw,
                   {"--config", "configs/generic-mlc-32g.ini", "--precondition=used", "--precondition.overwrite=0.2",
                    "--workload.rw=randrw", "--workload.rwmixread=70", "--workload.number_ios=5000"},
                   {"read.iops", "write.iops", "write.lat_ns.mean", "device.write_amplification"}, 0.02)
