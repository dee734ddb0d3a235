#pragma once
// A small drive for the FTL tests that compare two ways of reaching a state
// (functional_merge_test, bulk_writes_test): an FTL by name with its
// options, on its own flash media, run without timing, and its saved state
// (flash and FTL, byte for byte) for the comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "model/ftl/ftl.h"
#include "model/nand/flash_media.h"

namespace ssd::ftl_test {

struct Case {
  std::string name;  // for the test's name
  std::string ftl;
  std::vector<std::pair<std::string, double>> options;
  uint32_t die_pages = 1;
  double spare = 0.25;  // over-provisioning
  // bulk_writes_test: the page FTL's bulk writes run on several threads
  // (true), or take the page-by-page way (false).
  bool page_parallel = false;
};

inline std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

// 2 channels x 2 dies x 2 planes x 24 blocks x 16 pages, 25 % spare (unless the case says).
inline FlashGeometry small_geometry() {
  FlashGeometry g;
  g.channels = 2, g.dies_per_channel = 2, g.planes_per_die = 2, g.blocks_per_plane = 24, g.pages_per_block = 16;
  return g;
}

// The FTL's declared options at their defaults, then the case's.
inline ftl::FtlParams small_params(const Case& c) {
  ftl::FtlParams p;
  p.geometry = small_geometry();
  p.over_provisioning = c.spare;
  p.die_pages = c.die_pages;
  p.seed = 7;
  for (const ftl::FtlOptionSpec& spec : ftl::FtlRegistry::instance().entries().at(c.ftl).options)
    if (spec.unit == "bool")
      p.options.number[spec.key] = spec.fallback == "true";
    else if (spec.unit.find('|') != std::string::npos)
      p.options.text[spec.key] = spec.fallback;
    else
      p.options.number[spec.key] = std::stod(spec.fallback);  // the built-in FTLs' other options are counts
  for (const auto& [key, value] : c.options) p.options.number[key] = value;
  return p;
}

struct SmallDrive {
  // `functional`: no flash ops listed (as preconditioning runs), else every op.
  SmallDrive(const Case& c, bool functional) : media(small_geometry(), /*track_content=*/false) {
    ftl = ftl::FtlRegistry::instance().create(c.ftl, small_params(c), media);
    work.record_ops = !functional;
  }
  void write(uint64_t lpn, uint64_t version) {
    work.clear();
    ftl->write(Lpn(uint32_t(lpn)), version, work);
  }
  void trim(uint64_t lpn) {
    work.clear();
    ftl->trim(Lpn(uint32_t(lpn)), work);
  }
  std::string saved() {
    std::ostringstream out;
    Checkpoint c(out, "memory");
    media.checkpoint(c);
    EXPECT_TRUE(ftl->checkpoint(c));
    return out.str();
  }
  FlashMedia media;
  std::unique_ptr<ftl::Ftl> ftl;
  ftl::FtlWork work;
};

// The two drives are in the same state: saved states byte for byte, the
// FtlStats and every extra statistic.
inline void expect_same(SmallDrive& got, SmallDrive& want) {
  const std::string a_state = got.saved(), b_state = want.saved();
  ASSERT_EQ(a_state.size(), b_state.size());
  const auto differ = std::mismatch(a_state.begin(), a_state.end(), b_state.begin()).first;
  EXPECT_TRUE(differ == a_state.end()) << "saved states differ from byte " << differ - a_state.begin() << " of "
                                       << a_state.size();
  const ftl::FtlStats &a = got.ftl->stats(), &b = want.ftl->stats();
  EXPECT_EQ(a.host_pages_written, b.host_pages_written);
  EXPECT_EQ(a.flash_pages_written, b.flash_pages_written);
  EXPECT_EQ(a.gc_runs, b.gc_runs);
  EXPECT_EQ(a.gc_pages_moved, b.gc_pages_moved);
  EXPECT_EQ(a.trimmed_pages, b.trimmed_pages);
  const std::vector<ftl::FtlStat> x = got.ftl->extra_stats(), y = want.ftl->extra_stats();
  ASSERT_EQ(x.size(), y.size());
  for (size_t k = 0; k < x.size(); ++k) EXPECT_EQ(x[k].value, y[k].value) << x[k].name;
}

}  // namespace ssd::ftl_test
