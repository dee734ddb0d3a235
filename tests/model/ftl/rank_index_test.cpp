// The rank index of the page FTL's random and d-choice GC policies
// (model/ftl/page/rank_index.h): against a plain list of the marked blocks
// (the k-th is the k-th of the list), the picker's draw by rank against its
// pick from the listed candidates (the same victims for the same seed), and
// a saved drive state loaded into a new FTL, which rebuilds the index (and
// fifo's index by age, cost-benefit's oldest blocks of each valid count,
// dynamic wear levelling's count of the free blocks): it then picks the same
// victims and opens the same blocks as the FTL that saved it.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "model/ftl/checkpoint.h"
#include "model/ftl/page/gc_policy.h"
#include "model/ftl/page/rank_index.h"
#include "model/sim/random.h"
#include "small_drive.h"

namespace ssd::ftl {
namespace rank_index_test {

// The k-th marked block of `die` from a scan of its blocks.
uint32_t nth_by_scan(const std::vector<bool>& marked, uint32_t die, uint32_t per_die, uint32_t k) {
  for (uint32_t b = die * per_die; b < (die + 1) * per_die; ++b)
    if (marked[b] && k-- == 0) return b;
  ADD_FAILURE() << "rank beyond the marked blocks";
  return 0;
}

class RankIndexSizes : public testing::TestWithParam<uint32_t> {};

TEST_P(RankIndexSizes, FindsTheKthMarkedBlockOfEachDie) {
  const uint32_t dies = 3, per_die = GetParam();
  RankIndex index;
  index.reset(dies, per_die);
  std::vector<bool> marked(dies * per_die, false);
  Random rng(11);
  for (int step = 0; step < 4000; ++step) {
    const uint32_t b = uint32_t(rng.below(dies * per_die));
    index.add(b, marked[b] ? -1 : +1);
    marked[b] = !marked[b];
    const uint32_t die = uint32_t(rng.below(dies));
    uint32_t n = 0;
    for (uint32_t i = die * per_die; i < (die + 1) * per_die; ++i) n += marked[i];
    ASSERT_EQ(index.count(die), n) << "step " << step;
    // Every rank now and then, else one at random (the scan is the slow part).
    const bool all = step % 64 == 0;
    for (uint32_t k = all ? 0 : n ? uint32_t(rng.below(n)) : 0; k < n; k = all ? k + 1 : n)
      ASSERT_EQ(index.nth(die, k), nth_by_scan(marked, die, per_die, k)) << "step " << step << " rank " << k;
  }
}

// A power of two, one less and one more (the descent's edges), and a single block.
INSTANTIATE_TEST_SUITE_P(BlocksPerDie, RankIndexSizes, testing::Values(1u, 63u, 64u, 65u, 1000u));

TEST(VictimDraw, ByRankPicksWhatTheListedCandidatesGive) {
  for (GcPolicy policy : {GcPolicy::Random, GcPolicy::DChoice}) {
    VictimPicker listed(policy, 4, 64, 99), ranked(policy, 4, 64, 99);
    ASSERT_TRUE(ranked.draws());
    Random rng(5);
    const BigTable<uint64_t> closed_at;  // (not read by these policies)
    for (int round = 0; round < 500; ++round) {
      std::vector<uint32_t> candidates;
      std::vector<uint16_t> valid;
      for (uint32_t b = 0; b < 300; ++b)
        if (rng.below(3) == 0) candidates.push_back(b), valid.push_back(uint16_t(rng.below(64)));
      if (candidates.empty()) continue;
      const uint32_t want = listed.pick(candidates, valid, closed_at, 0);
      const size_t k = ranked.draw(candidates.size(), [&](size_t i) { return valid[i]; });
      ASSERT_EQ(candidates[k], want) << gc_policy_name(policy) << " round " << round;
    }
  }
  EXPECT_FALSE(VictimPicker(GcPolicy::Fifo, 1, 64, 1).draws());
}

TEST(VictimDraw, ALoadedStateRebuildsTheIndexAndPicksTheSameVictims) {
  // (fifo, cost-benefit: by age; greedy with dynamic wear levelling: its
  // count of the free blocks' erase counts.)
  for (const char* policy : {"random", "d-choice", "fifo", "cost-benefit", "greedy"}) {
    ftl_test::Case c{policy, "page", {}};
    FtlParams params = ftl_test::small_params(c);
    params.options.text["ftl.gc.policy"] = policy;
    if (std::string(policy) == "greedy") params.options.number["ftl.wl.dynamic"] = 1;
    FlashMedia media_a(ftl_test::small_geometry(), false), media_b(ftl_test::small_geometry(), false);
    std::unique_ptr<Ftl> a = FtlRegistry::instance().create("page", params, media_a);
    FtlWork work;
    const uint64_t span = a->user_pages();
    Random rng(3);
    for (uint64_t i = 0; i < 3 * span; ++i) work.clear(), a->write(Lpn(uint32_t(rng.below(span))), i, work);
    std::ostringstream saved;
    {
      Checkpoint out(saved, "memory");
      media_a.checkpoint(out);
      ASSERT_TRUE(a->checkpoint(out));
    }
    std::unique_ptr<Ftl> b = FtlRegistry::instance().create("page", params, media_b);
    {
      std::istringstream file(saved.str());
      Checkpoint in(file, "memory");
      media_b.checkpoint(in);
      ASSERT_TRUE(b->checkpoint(in));
    }
    ASSERT_NO_THROW(b->check_consistency()) << policy;
    // The same writes from here on: the same GC victims, the same drive.
    for (uint64_t i = 0; i < 2 * span; ++i) {
      const Lpn lpn(uint32_t(rng.below(span)));
      work.clear(), a->write(lpn, 10 * span + i, work);
      work.clear(), b->write(lpn, 10 * span + i, work);
    }
    ASSERT_NO_THROW(b->check_consistency()) << policy;
    EXPECT_GT(b->stats().gc_pages_moved, 0u) << policy;
    EXPECT_EQ(b->stats().gc_pages_moved, a->stats().gc_pages_moved) << policy;
    EXPECT_EQ(b->stats().flash_pages_written, a->stats().flash_pages_written) << policy;
    std::ostringstream sa, sb;
    Checkpoint ca(sa, "memory"), cb(sb, "memory");
    media_a.checkpoint(ca), media_b.checkpoint(cb);
    a->checkpoint(ca), b->checkpoint(cb);
    EXPECT_TRUE(sa.str() == sb.str()) << policy << ": the drives' saved states differ";
  }
}

}  // namespace rank_index_test
}  // namespace ssd::ftl
