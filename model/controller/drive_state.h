#pragma once
// A drive state as a recipe (`--state`): the phases the reviews of the era
// ran before measuring, applied functionally (no timing, so a 1 TiB drive
// is prepared in seconds). `configs/states/*.ini` ship the era's states;
// docs/states.md describes every phase.
//
//   secure-erase           every block erased, the FTL starts empty
//   fill                   every user page written once, in LBA order,
//                          page by page (each one command of one page, as
//                          the FTLs always saw it: no stream)
//   fill:128k              the same in 128 KiB commands (FTLs see the runs)
//   fill:128k:0.75x        only the first 75 % of the LBAs (a partition
//                          leaving the rest of the drive never written)
//   randwrite:4k:0.25x     random BS-aligned writes: a multiple of the user
//                          capacity ("0.25x") or a size ("8g"); each one
//                          command (one page: continuing nothing, whatever
//                          phase came before)
//   image:0.3x             a realistic OS/application image: files of
//                          log-uniform size (4 KiB - 4 MiB) written
//                          sequentially at random places
//   trim:all               every user page trimmed
//   steady                 the steady state of long uniform random 4 KiB
//                          overwrites, built from a model of the FTL's GC
//                          (page FTL, greedy) instead of written: seconds
//                          for a terabyte drive (starts from a secure erase)
//   trace:FILE             a captured block trace's writes and TRIMs, in
//                          order (any format the replay reads; reads and
//                          flushes have no effect on the state)
//   idle:60s               the drive idle: the FTL's background work (GC)
//                          runs until it has none or its flash time reaches
//                          the duration (ops one after another, as the
//                          firmware's idle loop issues them)

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssd {

// The generator seed of a recipe's k-th random phase (randwrite, image,
// steady; k from 0) for the run's --seed: each phase has its own, and the
// first is the one of `--precondition=used` since it had a single phase.
inline uint64_t state_phase_seed(uint64_t seed, uint32_t k) {
  return seed ^ 0x5553454455534544ull ^ (k * 0x9E3779B97F4A7C15ull);
}

struct StatePhase {
  enum class Kind { SecureErase, Fill, RandWrite, Image, TrimAll, Idle, Steady, Trace } kind = Kind::Fill;
  std::string text;         // as written, for reports and errors
  uint64_t bs = 0;          // bytes per command (0: page by page, the plain `fill`)
  double multiple = 0;      // amount as a multiple of the user capacity (0: use `bytes`)
  uint64_t bytes = 0;       // amount in bytes
  double idle_s = 0;        // idle duration
  std::string path = "";    // trace file
};

// A phase this drive cannot apply (a malformed trace, a phase its FTL has no
// model for): bad input, reported naming --state.
struct StateError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct DriveState {
  std::string name;         // "new", a file's name, or the inline text
  std::vector<StatePhase> phases;

  // Parse an inline list ("secure-erase,fill:128k,image:0.3x"); `where`
  // prefixes errors (std::invalid_argument, one line).
  static DriveState parse(const std::string& list, const std::string& where);
  // A name (configs/states/NAME.ini, looked up next to the binary's
  // configs), a path to such a file, or an inline list.
  static DriveState resolve(const std::string& arg);
  // The fixed states of --precondition: none, seq-fill, used (fill + that
  // many capacities of random 4 KiB overwrites).
  static DriveState precondition(const std::string& name, double overwrite);
};

}  // namespace ssd
