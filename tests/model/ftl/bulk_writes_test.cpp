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
#include <string>
#include <vector>

#include "model/ftl/page/page_ftl.h"
#include "model/sim/random.h"
#include "tests/model/ftl/small_drive.h"

namespace ssd {
namespace bulk_writes_test {

using ftl_test::Case;
using Drive = ftl_test::SmallDrive;

class BulkWrites : public ::testing::TestWithParam<Case> {};

TEST_P(BulkWrites, LeaveTheStateOfPageByPageWritesWhateverTheThreads) {
  Drive single(GetParam(), true);
  std::vector<std::unique_ptr<Drive>> bulk;
  const std::vector<unsigned> threads{1, 2, 3};
  for (size_t k = 0; k < threads.size(); ++k) bulk.push_back(std::make_unique<Drive>(GetParam(), true));
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
  EXPECT_GT(single.ftl->stats().gc_pages_moved, pages);  // merges did copy
  for (size_t k = 0; k < bulk.size(); ++k) {
    SCOPED_TRACE("threads " + std::to_string(threads[k]));
    bulk[k]->ftl->check_consistency();
    ftl_test::expect_same(*bulk[k], single);
    // The page FTL's threads did share the writes (or, where they may not, did not).
    if (const auto* page = dynamic_cast<const ftl::PageFtl*>(bulk[k]->ftl.get())) {
      EXPECT_EQ(page->parallel_batches() > 0, threads[k] > 1 && GetParam().page_parallel);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Ftls, BulkWrites,
    ::testing::Values(Case{"block", "block", {}},
                      Case{"block_buffered", "block", {{"ftl.block.buffer", 8}, {"ftl.block.buffer_blocks", 3}}},
                      Case{"block_striped_multiplane", "block",
                           {{"ftl.block.stripe", 2}, {"ftl.block.buffer", 8}, {"ftl.block.buffer_blocks", 8}}, 2},
                      // The page FTL: each thread takes a share of the dies
                      // (bulk_writes.cpp); with GC into the host's open
                      // block; with so little spare that writes pass over
                      // dies full of valid data; with wear levelling (which
                      // looks across dies: page by page).
                      Case{"page", "page", {}, 1, 0.25, true},
                      Case{"page_shared_gc_block", "page", {{"ftl.gc.separate", 0}}, 1, 0.25, true},
                      Case{"page_tight_spare", "page", {}, 1, 0.10, true},
                      Case{"page_wear_levelling", "page", {{"ftl.wl.threshold", 4}}, 1, 0.25, false},
                      Case{"dftl", "dftl", {{"ftl.map_cache", 4096}}}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace bulk_writes_test

}  // namespace ssd
