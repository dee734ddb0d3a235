// --help: the options grouped by section, units, the fio job-file keys and
// a few examples.
#include <algorithm>
#include <sstream>

#include "model/host/fio_job.h"
#include "model/sim/options.h"

namespace ssd {

std::string Options::help_examples() {
  // Paths are relative to the source tree (scripts/run runs build/ssdsim from anywhere).
  return "Exit status: 0 done; 2 bad input (one line naming the file, line or offset, and option); 3 an internal\n"
         "error; 128 + the signal's number (130 Ctrl-C, 143 SIGTERM) when interrupted: the timed phase stops at the\n"
         "next completed IO and the report of what ran is still written (stop_reason \"interrupted\").\n\n"
         "Examples (paths relative to the source tree):\n"
         "  ssdsim --config configs/drives/intel-x25m-g1.ini --config configs/workloads/iometer-4k-random-write-qd3.ini\n"
         "  ssdsim --config configs/drives/intel-x25m-g1.ini --workload.rw=randread --workload.bs=4k --report r.json\n"
         "  ssdsim --trace traces/samples/mqsim/tpcc-small.trace --timeseries ts.csv --latency-log lat.csv\n"
         "  ssdsim --job configs/workloads/oltp-mixed.fio --output-format=json > result.json\n"
         "  scripts/sweep configs/sweeps/channels-dies.ini --out sweep-out   (design-space sweep, docs/sweeps.md)\n";
}

std::string Options::help_text() {
  std::ostringstream out;
  out << "Usage: ssdsim [--config FILE]... [--KEY=VALUE]...\n"
         "Simulate a SATA SSD (SystemC/TLM-2.0) on a synthetic fio-style workload or a replayed block trace.\n"
         "The same KEYs work in INI config files: [nand] channels = 10 is --nand.channels=10.\n"
         "Later --config files and options override earlier ones.\n\n"
         "  --help              this text\n  --version           print the version\n"
         "  --list-ftls         list the FTL plug-ins\n  --kernel-speed      measure this machine's SystemC kernel (timed event ping-pong) and print it as JSON\n"
         "                      (each of these four alone; --help and --list-ftls also with --ftl.plugin)\n  --config FILE       load an INI preset (repeatable)\n";
  // One group per section, in order of first appearance: a key's section is
  // its prefix before the first dot, and a dotless key that heads others
  // (trace, trace.mode) joins their section; the rest are [general]. FTL
  // plug-ins append ftl.* options after the core ones: they land in [ftl].
  const auto& specs = option_specs();
  const auto section_of = [&specs](const std::string& key) -> std::string {
    const size_t dot = key.find('.');
    if (dot != std::string::npos) return key.substr(0, dot);
    for (const auto& o : specs)
      if (o.key.rfind(key + ".", 0) == 0) return key;
    return "general";
  };
  std::vector<std::string> sections;
  for (const auto& s : specs)
    if (std::find(sections.begin(), sections.end(), section_of(s.key)) == sections.end())
      sections.push_back(section_of(s.key));
  for (const std::string& sec : sections) {
    out << "\n[" << sec << "]\n";
    for (const auto& s : specs) {
      if (section_of(s.key) != sec) continue;
      std::string head = "  --" + s.key + " <" + s.unit + ">";
      if (head.size() < 40) head.resize(40, ' ');
      out << head << " " << s.help << " (default: " << (s.fallback.empty() ? "none" : s.fallback) << ")\n";
    }
  }
  out << "\nUnits: sizes B, k, m, g, t (powers of 1024); times ns, us, ms, s; rates B/s, KB/s, MB/s, GB/s\n"
         "(powers of 1000) or KiB/s, MiB/s, GiB/s; clocks Hz, kHz, MHz, GHz. A size or time without a unit is an\n"
         "error (except 0).\n";
  out << "\n" << fio_job_help();
  out << "\n" << help_examples();
  return out.str();
}

}  // namespace ssd
