#pragma once
// --save-state / --load-state: a drive state in a file, so a sweep
// prepares it once (docs/states.md, "Checkpoints"). The file holds a header
// (format version, the drive's fingerprint, the state's name and what its
// phases did) and then each RAID member's firmware counters, flash media and
// FTL, and the host's content shadow, each written by its own checkpoint walk
// (model/ftl/checkpoint.h).
//
// The fingerprint lists what shapes the state: the flash geometry, the FTL
// and every one of its parameters (spare, GC threshold, map entry size, the
// DRAM it may use, its own options), TRIM support, the RAID layout and
// whether contents are tracked. Timing parameters are left out on purpose:
// one state serves a sweep over tR, tPROG, channel rate, CPU costs or host
// settings. A file whose fingerprint differs is refused, naming the first
// difference.

#include <string>
#include <vector>

#include "model/controller/controller.h"
#include "model/host/content_shadow.h"
#include "model/sim/config.h"
#include "model/sim/ssd_drive.h"

namespace ssd {

std::string drive_fingerprint(const SimConfig& cfg);

// Write the drive's state after `state` was applied (what its phases did:
// `phases`). Throws CheckpointError (the FTL cannot, or the write failed).
void save_drive_state(const SimConfig& cfg, SsdDrive& drive, ContentShadow* shadow, const std::string& state,
                      const std::vector<StatePhaseResult>& phases);
// Load a saved state into a freshly built drive; returns what the saved
// state's phases did and sets `state` to its name. Throws CheckpointError
// (another drive, a damaged file, an FTL that cannot).
std::vector<StatePhaseResult> load_drive_state(const SimConfig& cfg, SsdDrive& drive, ContentShadow* shadow,
                                               std::string& state);

}  // namespace ssd
