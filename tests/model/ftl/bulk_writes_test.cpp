// Preconditioning writes its fill and its random pages through
// Ftl::write_pages, where the block FTL runs its die groups' merges on
// several threads (block_ftl_bulk.cpp). Whatever the thread count, the drive
// must end exactly as write() page by page leaves it: drives given the same
// pages, one page by page and others in bulk on 1, 2 and 3 threads, must
// save the same state (flash media and FTL, byte for byte) and count the
// same statistics. The bulk writes span several of write_pages' sub-chunks
// (65536 pages), and a TRIM phase in between makes the next bulk writes take
// the page-by-page way (a merge could then reach outside its group).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "model/ftl/ftl.h"
#include "model/nand/flash_media.h"
#include "model/sim/random.h"

namespace ssd {
namespace {

struct Case {
  std::string name;  // for the test's name
  std::string ftl;
  std::vector<std::pair<std::string, double>> options;
  uint32_t die_pages = 1;
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

// 2 channels x 2 dies x 2 planes x 24 blocks x 16 pages, 25 % spare.
FlashGeometry geometry() {
  FlashGeometry g;
  g.channels = 2, g.dies_per_channel = 2, g.planes_per_die = 2, g.blocks_per_plane = 24, g.pages_per_block = 16;
  return g;
}

ftl::FtlParams params(const Case& c) {
  ftl::FtlParams p;
  p.geometry = geometry();
  p.over_provisioning = 0.25;
  p.die_pages = c.die_pages;
  p.seed = 7;
  for (const ftl::FtlOptionSpec& spec : ftl::FtlRegistry::instance().entries().at(c.ftl).options)
    if (spec.unit == "bool")
      p.options.number[spec.key] = spec.fallback == "true";
    else if (spec.unit.find('|') != std::string::npos)
      p.options.text[spec.key] = spec.fallback;
    else
      p.options.number[spec.key] = std::stod(spec.fallback);  // these FTLs' are counts
  for (const auto& [key, value] : c.options) p.options.number[key] = value;
  return p;
}

struct Drive {
  explicit Drive(const Case& c) : media(geometry(), /*track_content=*/false) {
    ftl = ftl::FtlRegistry::instance().create(c.ftl, params(c), media);
    work.record_ops = false;  // functional, as preconditioning runs
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

class BulkWrites : public ::testing::TestWithParam<Case> {};

TEST_P(BulkWrites, LeaveTheStateOfPageByPageWritesWhateverTheThreads) {
  Drive single(GetParam());
  std::vector<std::unique_ptr<Drive>> bulk;
  const std::vector<unsigned> threads{1, 2, 3};
  for (size_t k = 0; k < threads.size(); ++k) bulk.push_back(std::make_unique<Drive>(GetParam()));
  const uint64_t pages = single.ftl->user_pages();
  uint64_t version = 1;
  // The same pages to every drive: page by page to `single`, in one bulk call to the others.
  const auto write = [&](const std::vector<uint32_t>& lpns) {
    for (size_t i = 0; i < lpns.size(); ++i) {
      single.work.clear();
      single.ftl->write(Lpn(lpns[i]), version + i, single.work);
    }
    for (size_t k = 0; k < bulk.size(); ++k) {
      bulk[k]->work.clear();
      bulk[k]->ftl->write_pages(lpns, version, threads[k], bulk[k]->work);
    }
    version += lpns.size();
  };
  std::vector<uint32_t> lpns(pages);
  for (uint32_t l = 0; l < pages; ++l) lpns[l] = l;
  write(lpns);  // the fill
  Random rng(2611);
  lpns.resize(150000);  // three sub-chunks, the last one short
  for (uint32_t& l : lpns) l = uint32_t(rng.below(pages));
  write(lpns);
  // TRIMs (single pages and whole ranges), then random writes again.
  std::vector<Drive*> all{&single};
  for (auto& d : bulk) all.push_back(d.get());
  for (int t = 0; t < 40; ++t) {
    const uint64_t first = rng.below(pages), n = std::min<uint64_t>(pages - first, t % 4 == 0 ? 40 : 1);
    for (Drive* d : all) {
      d->ftl->begin_command({ftl::HostRun::Op::Trim, first, n, false});
      for (uint64_t l = first; l < first + n; ++l) d->work.clear(), d->ftl->trim(Lpn(uint32_t(l)), d->work);
    }
  }
  lpns.resize(3 * pages);
  for (uint32_t& l : lpns) l = uint32_t(rng.below(pages));
  write(lpns);

  single.ftl->check_consistency();
  const std::string want = single.saved();
  const ftl::FtlStats& b = single.ftl->stats();
  EXPECT_GT(b.gc_pages_moved, pages);  // merges did copy
  const std::vector<ftl::FtlStat> y = single.ftl->extra_stats();
  for (size_t k = 0; k < bulk.size(); ++k) {
    SCOPED_TRACE("threads " + std::to_string(threads[k]));
    Drive& d = *bulk[k];
    d.ftl->check_consistency();
    const std::string got = d.saved();
    ASSERT_EQ(got.size(), want.size());
    const auto differ = std::mismatch(got.begin(), got.end(), want.begin()).first;
    EXPECT_TRUE(differ == got.end()) << "saved states differ from byte " << differ - got.begin() << " of "
                                     << got.size();
    const ftl::FtlStats& a = d.ftl->stats();
    EXPECT_EQ(a.host_pages_written, b.host_pages_written);
    EXPECT_EQ(a.flash_pages_written, b.flash_pages_written);
    EXPECT_EQ(a.gc_runs, b.gc_runs);
    EXPECT_EQ(a.gc_pages_moved, b.gc_pages_moved);
    EXPECT_EQ(a.trimmed_pages, b.trimmed_pages);
    const std::vector<ftl::FtlStat> x = d.ftl->extra_stats();
    ASSERT_EQ(x.size(), y.size());
    for (size_t s = 0; s < x.size(); ++s) EXPECT_EQ(x[s].value, y[s].value) << x[s].name;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Ftls, BulkWrites,
    ::testing::Values(Case{"block", "block", {}},
                      Case{"block_buffered", "block", {{"ftl.block.buffer", 8}, {"ftl.block.buffer_blocks", 3}}},
                      Case{"block_striped_multiplane", "block",
                           {{"ftl.block.stripe", 2}, {"ftl.block.buffer", 8}, {"ftl.block.buffer_blocks", 8}}, 2},
                      Case{"page", "page", {}}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace ssd
