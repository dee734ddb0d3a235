#pragma once
// Ctrl-C (SIGINT) and SIGTERM (what a batch scheduler sends at its time
// limit) during a run: the simulation stops at the next IO completion and
// writes its report on what it did, with stop_reason "interrupted", and the
// process exits with 128 + the signal's number, as a shell expects of a
// program a signal ended. A run hours long is not lost to one keystroke.
// Preconditioning stops at its next progress step (every 64k page writes):
// no report then, as the timed phase never ran. A second signal, a second
// or more after the first, ends the process at once, the default way (one
// sooner is the first delivered twice: timeout(1) signals the process and
// its group); so does the first, if the run has not stopped within a grace
// of some seconds (a drive being built, an IO that takes longer).
//
// Commands in flight at the stop are not in the report (as at a power cut):
// the report's IOs are the ones that completed.

#include <stdexcept>
#include <string>

namespace ssd {

// Install the handlers (once per process: the simulator's main), with the
// grace after the first signal in which the run must stop.
void catch_interrupts(unsigned grace_seconds = 5);
// Files the run created and has not written yet (the report, a saved drive
// state: made empty to check they can be written), to remove if a signal
// ends the process before the run can. Each has its slot (0 to
// kForcedFiles - 1); "" once the file is written (or gone).
enum ForcedFile : unsigned { kForcedReport, kForcedState, kForcedFiles };
void remove_if_forced(ForcedFile slot, const std::string& path);
// The run has stopped (the simulation returned, or preconditioning gave up):
// no grace runs from here, and a signal now only sets the flag (the report
// is written, then the exit status says the run was interrupted).
void run_stopped();
// The signal received since then (SIGINT or SIGTERM), 0 if none. (One load
// of a flag: cheap enough to ask on every IO completion.)
int interrupt_signal();
// "SIGINT" / "SIGTERM".
const char* signal_name(int sig);

// Thrown where a phase without a report (preconditioning) sees the signal.
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(const std::string& where);
};

}  // namespace ssd
