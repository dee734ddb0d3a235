// ssdsim: parse options, build the drive, run, report. All behaviour lives
// in the ssdsim_model library so tests drive exactly the same code.

#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>
#include <utility>

#include "model/sim/interrupt.h"
#include "model/sim/log.h"
#include "model/sim/options.h"
#include "model/sim/replay.h"
#include "model/sim/report.h"
#include "model/sim/kernel_speed.h"
#include "model/controller/drive_state.h"
#include "model/sim/simulation.h"
#include "model/sim/text.h"
#include "traces/trace_reader.h"

#ifndef SSDSIM_VERSION
#define SSDSIM_VERSION "0.0.0"
#endif

namespace {
// An output file the run writes whole when it has the content (the report
// at the end, a saved drive state after preconditioning), checked writable
// before the run without truncating it. Until then an existing file keeps
// its content, and one created for the check is removed if the run ends
// before writing it (an error, an interrupt): a failed run leaves no empty
// file behind and destroys no earlier one.
class OutputFile {
 public:
  // `slot`: the one of ssd::remove_if_forced() that holds this file until
  // it is written, so a second Ctrl-C or the grace's end, which end the
  // process at once, remove it too.
  OutputFile(std::string path, ssd::ForcedFile slot) : path_(std::move(path)), slot_(slot) {
    if (path_.empty()) return;
    std::error_code ec;
    created_ = !std::filesystem::exists(path_, ec);
    writable_ = bool(std::ofstream(path_, std::ios::app));  // (append: nothing truncated yet)
    if (created_ && writable_) ssd::remove_if_forced(slot_, path_);
  }
  ~OutputFile() {
    if (!created_ || !writable_) return;
    ssd::remove_if_forced(slot_, "");
    std::error_code ec;
    if (std::filesystem::file_size(path_, ec) == 0 && !ec) std::filesystem::remove(path_, ec);
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  bool writable() const { return path_.empty() || writable_; }
  // Write `text` to it (nothing without a path); false if that failed.
  bool write(const std::string& text) {
    if (path_.empty()) return true;
    std::ofstream f(path_, std::ios::trunc);
    const bool ok = bool(f << text) && bool(f.flush());
    // Only now: a process ended while writing must not leave half a file.
    ssd::remove_if_forced(slot_, "");
    return ok;
  }

 private:
  std::string path_;
  ssd::ForcedFile slot_;
  bool created_ = false, writable_ = false;
};

// SystemC's own messages (a warning) go to stderr: stdout carries the
// report, which with --output-format=json must be JSON and nothing else.
void systemc_messages_to_stderr(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY) std::fprintf(stderr, "\n%s\n", sc_core::sc_report_compose_message(rep).c_str());
  sc_core::sc_report_handler::default_handler(rep, actions & ~sc_core::SC_DISPLAY);
}
}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_handler(systemc_messages_to_stderr);
  // sc_stop's "Simulation stopped by user." (an interrupt, an error, a log
  // that cannot be written) is not shown: the simulator's own line says why
  // the run stopped, and an error stays one line.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  try {
    const ssd::Options opts = ssd::Options::parse(argc, argv);
    if (opts.help()) {
      std::fputs(ssd::Options::help_text().c_str(), stdout);
      return 0;
    }
    if (opts.version()) {
      std::printf("ssdsim %s (SystemC %s)\n", SSDSIM_VERSION, sc_core::sc_release());
      return 0;
    }
    if (opts.list_ftls()) {
      for (const auto& [name, what] : ssd::ftl::FtlRegistry::instance().list())
        std::printf("%-10s %s\n", name.c_str(), what.c_str());
      return 0;
    }
    if (opts.kernel_speed()) {  // scripts/bench: this machine's SystemC kernel speed
      const ssd::KernelSpeed k = ssd::measure_kernel_speed(4000000);
      std::printf("{\"notifications\": %llu, \"delta_cycles\": %llu, \"wall_s\": %.6f}\n",
                  static_cast<unsigned long long>(k.notifications), static_cast<unsigned long long>(k.delta_cycles),
                  k.wall_s);
      return 0;
    }
    const ssd::SimConfig& cfg = opts.config();
    ssd::log::configure(cfg.log_level);
    // From here a signal stops the run where it can report (the building of
    // a large drive takes seconds: one then stops at the first check after it).
    ssd::catch_interrupts();

    // Trace files, the lost-ranges CSV and an exported trace: an unwritable
    // path fails before the run (the recorder opens them while the drive is
    // built; the export, after).
    // (The export's file: a blktrace export writes NAME.blktrace.0, and an
    // empty NAME made here would be what a replay of NAME reads.)
    const std::string export_file =
        cfg.export_trace.empty() ? "" : traces::trace_writer_file(cfg.export_trace, cfg.export_format);
    for (const auto& [key, path] : {std::pair{"vcd", cfg.vcd}, std::pair{"activity", cfg.activity},
                                    std::pair{"export-trace", export_file},
                                    std::pair{"powerfail.lost", cfg.powerfail_lost}})
      if (!path.empty() && !std::ofstream(path)) throw opts.error(key, path + ": cannot open for writing");
    const OutputFile state_file(cfg.save_state, ssd::kForcedState);  // (written after preconditioning, drive_checkpoint.cpp)
    if (!state_file.writable()) throw opts.error("save-state", cfg.save_state + ": cannot open for writing");
    // An FTL that cannot run this configuration, or a DRAM too small for its
    // mapping table, says which option is at fault.
    std::unique_ptr<ssd::Simulation> built;
    try {
      built = std::make_unique<ssd::Simulation>(cfg);
    } catch (const ssd::ftl::FtlConfigError& e) {
      throw opts.error(e.key, e.what());
    }
    ssd::Simulation& sim = *built;
    if (!cfg.export_trace.empty()) {
      ssd::export_synthetic_trace(cfg, sim.workload_span());
      std::printf("wrote %llu requests to %s (%s)\n", static_cast<unsigned long long>(cfg.workload.number_ios),
                  cfg.export_trace.c_str(), cfg.export_format.c_str());
      return 0;
    }
    // Check the report path first: an unwritable one should fail before the run, not after.
    OutputFile report_file(cfg.report, ssd::kForcedReport);
    if (!report_file.writable()) throw opts.error("report", cfg.report + ": cannot open for writing");
    // --output (fio's): what --output-format selects goes there instead of stdout.
    std::FILE* out = stdout;
    if (!cfg.output.empty() && !(out = std::fopen(cfg.output.c_str(), "w")))
      throw opts.error("output", cfg.output + ": cannot open for writing");
    ssd::ReplayRun replay(cfg, opts, sim);  // the trace, the job file's jobs or the synthetic workload
    try {
      replay.run();
    } catch (const ssd::Interrupted& e) {  // while preconditioning: nothing to report
      std::fprintf(stderr, "ssdsim: %s\n", e.what());
      return 128 + ssd::interrupt_signal();
    } catch (const ssd::ftl::FtlConfigError& e) {  // e.g. a state phase the FTL cannot apply
      throw opts.error(e.key, e.what());
    } catch (const ssd::StateError& e) {  // a phase this drive cannot apply (a malformed trace, ...)
      throw opts.error("state", e.what());
    } catch (const ssd::CheckpointError& e) {  // another drive's state, a damaged file, an FTL that cannot
      throw opts.error(cfg.load_state.empty() ? "save-state" : "load-state", e.what());
    }

    nlohmann::json report = sim.report();
    report["ssdsim_version"] = SSDSIM_VERSION;
    report["options"] = opts.values();
    replay.annotate(report);
    report.update(replay.fio_envelope(SSDSIM_VERSION, cfg.output_json_plus));
    if (cfg.output_normal) ssd::print_summary(out, report);
    if (cfg.output_json) std::fprintf(out, "%s\n", report.dump(2).c_str());
    if (out != stdout && !ssd::text::close_written(out))
      throw ssd::OptionError(cfg.output + ": write failed (option 'output')");
    if (!report_file.write(report.dump(2) + '\n'))
      throw ssd::OptionError(cfg.report + ": write failed (option 'report')");
    if (const int sig = ssd::interrupt_signal()) {
      std::fprintf(stderr, "ssdsim: interrupted by %s at %.6f s simulated: the report covers the %llu IOs completed\n",
                   ssd::signal_name(sig), sim.host().last_completion().to_seconds(),
                   static_cast<unsigned long long>(sim.host().completed()));
      return 128 + sig;
    }
    return 0;
  } catch (const ssd::OptionError& e) {
    std::fprintf(stderr, "ssdsim: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ssdsim: internal error: %s\n", e.what());
    return 3;
  }
}

// Our own entry point: the kernel reads SYSTEMC_DISABLE_COPYRIGHT_MESSAGE
// before sc_main runs, and its banner would precede every report on stdout.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  const int status = sc_core::sc_elab_and_sim(argc, argv);
  // Whatever went to standard output (the summary, a JSON report, --help)
  // must have arrived: a full disk or a closed file is an error, not exit 0.
  // (An earlier failed write is kept by the stream's error flag.)
  if (status == 0 && (std::fflush(stdout) != 0 || std::ferror(stdout))) {
    std::fprintf(stderr, "ssdsim: error: standard output: write failed (--output FILE writes the results to a file)\n");
    return 2;
  }
  return status;
}
