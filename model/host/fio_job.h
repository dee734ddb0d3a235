#pragma once
// fio job files (`ssdsim --job FILE.fio`): `[global]` and `[job]` sections of
// fio options, parsed with fio's value syntax and meaning, so a job file
// written for fio runs here unchanged when it uses the supported options.
//
// Value syntax, as fio: sizes are bytes without a suffix, k/m/g/t/p (also
// KiB, KB, ...) are powers of 1024, or N% of the drive's user capacity (size,
// offset); times have us/ms/s/m/h suffixes and default to seconds (runtime,
// ramp_time, iopsavgtime/bwavgtime in ms) or microseconds (thinktime).
// Options of a [global] section apply to every job section after it; a job's
// own options override them. numjobs=N clones a job N times; every clone is
// a job of its own, reported as one (fio's jobs[] without group_reporting).
//
// An option ssdsim does not know is an error: a known fio option that is
// not supported here says so; anything else is a misspelling and the error
// suggests the closest supported name.

#include <systemc>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ssd {

enum class FioDistribution { Random, Zipf, Pareto, Normal };

struct FioBlockSize {
  uint64_t bytes = 4096;
  uint32_t percent = 100;  // share of IOs with this size (bssplit)
};

// Options as written, in file order (fio's "job options" / "global options").
using FioOptionList = std::vector<std::pair<std::string, std::string>>;

struct FioJob {
  std::string name;                 // section name, or name=
  uint32_t clone = 0;               // 0 .. numjobs-1
  FioOptionList options;            // the job section's own options, as written
  std::string rw = "read";          // read write trim randread randwrite randtrim rw readwrite randrw
  std::vector<FioBlockSize> bs{FioBlockSize{}};  // bs, or the bssplit entries (percents sum to 100)
  uint32_t iodepth = 1;
  uint32_t numjobs = 1;
  uint32_t rwmixread = 50;
  uint32_t percentage_random = 100;
  FioDistribution distribution = FioDistribution::Random;
  double distribution_param = 0;    // zipf theta, pareto h, normal sigma (% of the span)
  uint64_t size = 0;                // LBA span in bytes (0: from offset to the end of the drive)
  uint64_t offset = 0;
  uint64_t io_size = 0;             // bytes to transfer (0: size); ignored when time_based
  uint64_t number_ios = 0;          // 0: no count limit
  bool time_based = false;
  sc_core::sc_time runtime = sc_core::SC_ZERO_TIME;    // after ramp_time; 0: none
  sc_core::sc_time ramp_time = sc_core::SC_ZERO_TIME;  // IOs completing earlier are not counted
  sc_core::sc_time thinktime = sc_core::SC_ZERO_TIME;
  double rate_iops = 0;             // open-loop arrivals per second; 0: closed loop
  uint32_t fsync = 0;               // a FLUSH CACHE after every N writes; 0: none
  std::optional<uint64_t> randseed;
  uint32_t buffer_compress_percentage = 0;  // the data's compressibility (controller.compression), one per run
  std::string filename;                     // recorded only: the simulated drive is the target
  sc_core::sc_time iopsavgtime = sc_core::sc_time(500, sc_core::SC_MS);
  sc_core::sc_time bwavgtime = sc_core::sc_time(500, sc_core::SC_MS);

  uint64_t min_bs() const;
};

struct FioJobFile {
  std::string path;
  FioOptionList global;     // every [global] option, as written
  std::vector<FioJob> jobs;  // numjobs expanded
};

// Parse and check `path` against the drive: spans within `capacity` bytes,
// the iodepth x numjobs of all jobs together at most 1024 (the host queue;
// beyond the drive's NCQ depth the requests wait there, as with fio).
// Throws OptionError "FILE: line N: option 'KEY': what".
FioJobFile parse_fio_job_file(const std::string& path, uint64_t capacity);

// What --help says about job files.
std::string fio_job_help();

}  // namespace ssd
