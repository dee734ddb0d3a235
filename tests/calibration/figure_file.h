#pragma once
// A calibration figure file (tests/calibration/figures/<drive>.ini): one
// section per published figure or qualitative fact about the drive whose
// preset is configs/drives/<drive>.ini. See docs/calibration.md.
//
//   [randwrite-4k-qd1-new]
//   source = AnandTech, "The SSD Anthology" (anandtech.com/show/2738)
//   state = new                 # new | fill | used | torture | a recipe of
//                               # phases: fill, randwrite:4k:1x, trim:all (drive_state())
//   options = --workload.rw=randwrite --workload.bs=4k --workload.iodepth=1
//   metric = write.iops         # see metric_value()
//   published = 11171           # a figure: simulated within `tolerance`
//   tolerance = 15%             # default 15 %
//   # or a fact: at_most / at_least on the metric, or on its ratio to the
//   # metric of another figure (ratio_to = SECTION or DRIVE/SECTION)
//   reference = true            # only a ratio_to base: not a test itself
//   preset = configs/x.ini      # another drive file than configs/drives/<drive>.ini
//   job = tests/calibration/jobs/x.fio  # a fio job file instead of (or with)
//                               # options; metrics are then the job's (after its ramp_time)
#include <map>
#include <string>
#include <vector>

namespace calib {

struct Figure {
  std::string drive, name, file;
  int line = 0;  // of the section header
  std::map<std::string, std::string> keys;
  std::string get(const std::string& k, const std::string& def = "") const {
    auto it = keys.find(k);
    return it == keys.end() ? def : it->second;
  }
};

// Every figure of every file in `dir`, in file then section order. A
// malformed line throws std::runtime_error naming file and line.
std::vector<Figure> load_figures(const std::string& dir);

// The ssdsim options of a drive state name (the one place that maps them).
std::string drive_state(const std::string& state);

}  // namespace calib
