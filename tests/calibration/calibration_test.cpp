// Calibration tests: each published figure of tests/calibration/figures/
// becomes one GoogleTest case that runs the drive's preset through the
// review's workload and compares (docs/calibration.md). scripts/compare
// reads the recorded properties (published, simulated, ratio) into a table.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "tests/calibration/figure_file.h"

namespace {

using calib::Figure;
std::vector<Figure> g_figures;

const Figure* find_figure(const Figure& from, const std::string& ref) {
  const auto slash = ref.find('/');
  const std::string drive = slash == std::string::npos ? from.drive : ref.substr(0, slash);
  const std::string name = slash == std::string::npos ? ref : ref.substr(slash + 1);
  for (const Figure& f : g_figures)
    if (f.drive == drive && f.name == name) return &f;
  return nullptr;
}

double number(const Figure& f, const std::string& key) {
  std::string v = f.get(key);
  double scale = 1;
  if (!v.empty() && v.back() == '%') {
    v.pop_back();
    scale = 0.01;
  }
  size_t used = 0;
  double x = 0;
  try {
    x = std::stod(v, &used);
  } catch (...) {
    used = 0;
  }
  if (used == 0 || used != v.size())
    throw std::runtime_error(f.file + ":" + std::to_string(f.line) + ": [" + f.name + "] " + key + " = '" + f.get(key) +
                             "' is not a number");
  return x * scale;
}

// The value a metric names in a report: OP.iops, OP.mb_s (10^6 B/s),
// OP.lat_mean_ms, OP.lat_max_ms, OP.lat_p99_ms, OP.iops_cv (the standard
// deviation of the IOPS samples over their mean: how steady the rate is,
// sampled every report.avgtime or the job's iopsavgtime), with OP read or
// write. `job`: the fio job's own statistics (after its ramp_time), else
// the host's.
double metric_value(const nlohmann::json& r, const std::string& metric, bool job) {
  const auto dot = metric.find('.');
  if (dot == std::string::npos) throw std::runtime_error("metric '" + metric + "': expected OP.NAME");
  const std::string op = metric.substr(0, dot), what = metric.substr(dot + 1);
  if (op != "read" && op != "write") throw std::runtime_error("metric '" + metric + "': OP is read or write");
  if (job && r.at("jobs").size() != 1) throw std::runtime_error("a figure's job file must hold one job");
  const nlohmann::json& s = job ? r.at("jobs").at(0).at(op) : r.at(op);
  if (s.at("total_ios").get<uint64_t>() == 0) throw std::runtime_error("the run made no " + op + " IOs");
  if (what == "iops") return s.at("iops").get<double>();
  if (what == "iops_cv") {
    if (s.at("iops_samples").get<uint64_t>() < 2) throw std::runtime_error("iops_cv needs two IOPS samples or more");
    return s.at("iops_stddev").get<double>() / s.at("iops_mean").get<double>();
  }
  if (what == "mb_s") return s.at("bw_bytes").get<double>() / 1e6;
  if (what == "lat_mean_ms") return s.at("lat_ns").at("mean").get<double>() / 1e6;
  if (what == "lat_max_ms") return s.at("lat_ns").at("max").get<double>() / 1e6;
  if (what == "lat_p99_ms") return s.at("lat_ns").at("percentile").at("99.000000").get<double>() / 1e6;
  throw std::runtime_error("metric '" + metric +
                           "': unknown (iops, mb_s, lat_mean_ms, lat_max_ms, lat_p99_ms, iops_cv)");
}

// Runs the figure's workload on its drive's preset; returns its metric.
// The same run (preset, state, job and options) is simulated once per
// process: a reference that several figures divide by, or two metrics of
// one long run, cost one simulation.
double simulate(const Figure& f) {
  // `preset = PATH` (from the repository root) names another drive file.
  const std::string root = std::string(SSDSIM_ROOT) + "/";
  const std::string preset = root + (f.keys.count("preset") ? f.get("preset") : "configs/drives/" + f.drive + ".ini");
  if (!std::filesystem::exists(preset)) throw std::runtime_error("no preset " + preset);
  const bool job = f.keys.count("job") > 0;
  const std::string job_file = job ? root + f.get("job") : "";
  if (job && !std::filesystem::exists(job_file)) throw std::runtime_error("no job file " + job_file);
  const std::string args = "--config " + preset + " " + calib::drive_state(f.get("state", "new")) + " " +
                           (job ? "--job " + job_file + " " : "") + f.get("options");
  static std::map<std::string, nlohmann::json> reports;
  if (auto it = reports.find(args); it != reports.end()) return metric_value(it->second, f.get("metric"), job);
  const std::string report = testing::TempDir() + "ssdsim-calib-" + std::to_string(getpid()) + ".json";
  const std::string cmd = std::string(SSDSIM_BIN) + " " + args + " --log-level=off --report " + report +
                          " >/dev/null 2>" + report + ".err";
  const int status = std::system(cmd.c_str());
  std::ifstream err(report + ".err");
  std::stringstream msg;
  msg << err.rdbuf();
  std::remove((report + ".err").c_str());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("ssdsim failed: " + cmd + "\n" + msg.str());
  nlohmann::json r;
  std::ifstream(report) >> r;
  std::remove(report.c_str());
  return metric_value(reports[args] = std::move(r), f.get("metric"), job);
}

class FigureTest : public testing::Test {
 public:
  explicit FigureTest(const Figure* f) : f_(f) {}
  void TestBody() override {
    const Figure& f = *f_;
    const std::string about = f.file + ":" + std::to_string(f.line) + " [" + f.name + "] " + f.get("metric") +
                              ", source: " + f.get("source", "(none)");
    try {
      double value = simulate(f);
      if (f.keys.count("ratio_to")) {
        const Figure* other = find_figure(f, f.get("ratio_to"));
        if (!other) throw std::runtime_error("ratio_to '" + f.get("ratio_to") + "': no such figure");
        const double base = simulate(*other);
        RecordProperty("measured", std::to_string(value));
        RecordProperty("ratio_to_value", std::to_string(base));
        value /= base;
      }
      RecordProperty("simulated", std::to_string(value));  // the checked value (a ratio with ratio_to)
      if (f.keys.count("published")) {
        const double pub = number(f, "published"), tol = f.keys.count("tolerance") ? number(f, "tolerance") : 0.15;
        RecordProperty("published", std::to_string(pub));
        RecordProperty("ratio", std::to_string(value / pub));
        EXPECT_LE(std::fabs(value / pub - 1.0), tol)
            << about << ": published " << pub << ", simulated " << value << " (ratio " << value / pub << ", tolerance "
            << tol * 100 << " %)";
      }
      if (f.keys.count("at_most")) {
        RecordProperty("at_most", f.get("at_most"));
        EXPECT_LE(value, number(f, "at_most")) << about << ": simulated " << value << ", expected at most "
                                               << f.get("at_most");
      }
      if (f.keys.count("at_least")) {
        RecordProperty("at_least", f.get("at_least"));
        EXPECT_GE(value, number(f, "at_least")) << about << ": simulated " << value << ", expected at least "
                                                << f.get("at_least");
      }
      if (!f.keys.count("published") && !f.keys.count("at_most") && !f.keys.count("at_least"))
        ADD_FAILURE() << about << ": no published, at_most or at_least: the figure checks nothing";
    } catch (const std::exception& e) {
      ADD_FAILURE() << about << ": " << e.what();
    }
  }

 private:
  const Figure* f_;
};

std::string test_name(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const char* dir = std::getenv("SSDSIM_CALIBRATION_FIGURES");  // the harness's own test points elsewhere
  try {
    g_figures = calib::load_figures(dir ? dir : std::string(SSDSIM_ROOT) + "/tests/calibration/figures");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "calibration_tests: %s\n", e.what());
    return 2;
  }
  for (const Figure& f : g_figures)
    if (f.get("reference") != "true")  // a reference run is only a ratio_to base
      testing::RegisterTest(test_name(f.drive).c_str(), test_name(f.name).c_str(), nullptr, nullptr, f.file.c_str(),
                          f.line, [&f]() -> testing::Test* { return new FigureTest(&f); });
  return RUN_ALL_TESTS();
}
