// fio job-file parsing: fio's value syntax (sizes in powers of 1024 and bytes
// without a suffix, times with fio's default units), [global] inheritance,
// bssplit shares, aliases and numjobs expansion.
#include <gtest/gtest.h>

#include <fstream>

#include "model/host/fio_job.h"
#include "tests/model/scratch.h"
#include "model/sim/options.h"

namespace fio_job_test {

using sc_core::sc_time;

const uint64_t kCapacity = 1ull << 30;

ssd::FioJobFile parse(const std::string& text) {
  const std::string path = ssdtest::scratch("job.fio");
  std::ofstream(path) << text;
  return ssd::parse_fio_job_file(path, kCapacity);
}

TEST(FioJobFile, SizesAreBytesOrPowersOf1024) {
  const auto f = parse("[a]\nbs=4k\nsize=1m\noffset=4096\nio_size=1g\n[b]\nbs=4K\nsize=50%\noffset=512\n[c]\n"
                       "blocksize=16384\n");
  ASSERT_EQ(f.jobs.size(), 3u);
  EXPECT_EQ(f.jobs[0].bs[0].bytes, 4096u);
  EXPECT_EQ(f.jobs[0].size, 1u << 20);
  EXPECT_EQ(f.jobs[0].offset, 4096u);
  EXPECT_EQ(f.jobs[0].io_size, 1u << 30);
  EXPECT_EQ(f.jobs[1].bs[0].bytes, 4096u);
  EXPECT_EQ(f.jobs[1].size, kCapacity / 2);
  EXPECT_EQ(f.jobs[1].offset, 512u);
  EXPECT_EQ(f.jobs[2].bs[0].bytes, 16384u);  // the alias
  // The same option twice in a section (here by its alias) is refused where
  // fio would take the later value: one of the two lines is a mistake.
  EXPECT_THROW(parse("[c]\nbs=8KiB\nblocksize=16384\n"), ssd::OptionError);
}

TEST(FioJobFile, TimesUseFiosDefaultUnits) {
  const auto f = parse("[a]\nruntime=10\nramp_time=500ms\nthinktime=100\n[b]\nruntime=1m\nthinktime=2ms\n"
                       "iopsavgtime=20\n[c]\ntimeout=10s\nramp_time=1500us\n");
  EXPECT_EQ(f.jobs[0].runtime, sc_time(10, sc_core::SC_SEC));  // seconds by default
  EXPECT_EQ(f.jobs[0].ramp_time, sc_time(500, sc_core::SC_MS));
  EXPECT_EQ(f.jobs[0].thinktime, sc_time(100, sc_core::SC_US));  // microseconds by default
  EXPECT_EQ(f.jobs[1].runtime, sc_time(60, sc_core::SC_SEC));    // m is minutes for times
  EXPECT_EQ(f.jobs[1].thinktime, sc_time(2, sc_core::SC_MS));
  EXPECT_EQ(f.jobs[1].iopsavgtime, sc_time(20, sc_core::SC_MS));  // milliseconds by default
  EXPECT_EQ(f.jobs[2].runtime, sc_time(10, sc_core::SC_SEC));
  EXPECT_EQ(f.jobs[2].ramp_time, sc_time(1500, sc_core::SC_US));
  EXPECT_THROW(parse("[a]\nruntime=365d\n"), ssd::OptionError);  // beyond SystemC's 64-bit picoseconds
}

TEST(FioJobFile, GlobalAppliesToLaterJobsAndJobsOverride) {
  const auto f = parse("[global]\nrw=randwrite\niodepth=4\n[a]\niodepth=2\n[global]\nrwmixread=70\n[b]\nrw=randrw\n");
  ASSERT_EQ(f.jobs.size(), 2u);
  EXPECT_EQ(f.jobs[0].rw, "randwrite");
  EXPECT_EQ(f.jobs[0].iodepth, 2u);
  EXPECT_EQ(f.jobs[0].rwmixread, 50u);
  EXPECT_EQ(f.jobs[1].iodepth, 4u);
  EXPECT_EQ(f.jobs[1].rwmixread, 70u);
  EXPECT_EQ(f.global.size(), 3u);
  ASSERT_EQ(f.jobs[0].options.size(), 1u);  // "job options": the section's own, as written
  EXPECT_EQ(f.jobs[0].options[0].first, "iodepth");
}

// As fio: a job's bssplit decides its block sizes, whether bs comes before
// or after it, in the job or in [global].
TEST(FioJobFile, BssplitWinsOverBsInEitherOrder) {
  const auto f = parse("[a]\nbssplit=4k/50:8k/50\nbs=16k\n[b]\nbs=16k\nbssplit=4k/50:8k/50\n"
                       "[global]\nbs=32k\n[c]\nbssplit=4k/50:8k/50\n");
  for (const auto& j : f.jobs) {
    ASSERT_EQ(j.bs.size(), 2u) << j.name;
    EXPECT_EQ(j.bs[0].bytes, 4096u) << j.name;
    EXPECT_EQ(j.bs[1].bytes, 8192u) << j.name;
  }
}

TEST(FioJobFile, BssplitSharesAndDefaults) {
  const auto f = parse("[a]\nbssplit=4k/50:64k/50\n[b]\nbssplit=4k/10:8k:16k\n");
  ASSERT_EQ(f.jobs[0].bs.size(), 2u);
  EXPECT_EQ(f.jobs[0].bs[1].bytes, 65536u);
  EXPECT_EQ(f.jobs[0].bs[1].percent, 50u);
  // Entries without a share split what is left: 90 over two.
  EXPECT_EQ(f.jobs[1].bs[1].percent, 45u);
  EXPECT_EQ(f.jobs[1].bs[2].percent, 45u);
  EXPECT_EQ(f.jobs[1].min_bs(), 4096u);
}

TEST(FioJobFile, DefaultsAreFios) {
  const auto f = parse("[a]\n");
  const ssd::FioJob& j = f.jobs[0];
  EXPECT_EQ(j.rw, "read");
  EXPECT_EQ(j.bs[0].bytes, 4096u);
  EXPECT_EQ(j.iodepth, 1u);
  EXPECT_EQ(j.rwmixread, 50u);
  EXPECT_EQ(j.name, "a");
}

TEST(FioJobFile, NumjobsExpandsAndCountsAgainstTheHostQueue) {
  const auto f = parse("[a]\nnumjobs=3\niodepth=10\n[b]\nname=renamed\n");
  ASSERT_EQ(f.jobs.size(), 4u);
  EXPECT_EQ(f.jobs[2].clone, 2u);
  EXPECT_EQ(f.jobs[3].name, "renamed");
  // Beyond NCQ the host queues the rest (up to 1024 outstanding in all).
  EXPECT_NO_THROW(parse("[a]\nnumjobs=3\niodepth=10\n[b]\niodepth=3\n"));
  EXPECT_NO_THROW(parse("[a]\nnumjobs=4\niodepth=256\n"));
  EXPECT_THROW(parse("[a]\nnumjobs=4\niodepth=256\n[b]\n"), ssd::OptionError);
}

TEST(FioJobFile, DistributionsAndNoOps) {
  const auto f = parse("[a]\nrandom_distribution=zipf:0.8\nioengine=libaio\ndirect=1\ngroup_reporting\n"
                       "buffer_compress_percentage=50\nfilename=/dev/sdb\n[b]\nrandom_distribution=pareto:0.2\n"
                       "[c]\nrandom_distribution=normal:5\n[d]\nrandom_distribution=random\n");
  EXPECT_EQ(f.jobs[0].distribution, ssd::FioDistribution::Zipf);
  EXPECT_DOUBLE_EQ(f.jobs[0].distribution_param, 0.8);
  EXPECT_EQ(f.jobs[0].buffer_compress_percentage, 50u);
  EXPECT_EQ(f.jobs[0].filename, "/dev/sdb");
  EXPECT_EQ(f.jobs[1].distribution, ssd::FioDistribution::Pareto);
  EXPECT_EQ(f.jobs[2].distribution, ssd::FioDistribution::Normal);
  EXPECT_EQ(f.jobs[3].distribution, ssd::FioDistribution::Random);
  EXPECT_THROW(parse("[a]\nrandom_distribution=zoned:60/10:40/90\n"), ssd::OptionError);
  EXPECT_THROW(parse("[a]\nrandom_distribution=pareto:1.5\n"), ssd::OptionError);
  EXPECT_THROW(parse("[a]\ndirect=2\n"), ssd::OptionError);
}

}  // namespace fio_job_test

