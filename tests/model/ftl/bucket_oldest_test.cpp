// The cost-benefit GC policy's index, the oldest blocks of each valid-count
// bucket (model/ftl/page/bucket_oldest.h): against a plain model of the
// buckets (the front is the members' oldest, in order), the page FTL's
// cost-benefit victim against the picker's choice from the listed
// reclaimable blocks while a drive is written, and the exact order of
// scores where a floating-point score would round.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "model/ftl/page/bucket_oldest.h"
#include "model/ftl/page/gc_policy.h"
#include "model/ftl/page/page_ftl.h"
#include "model/sim/random.h"
#include "small_drive.h"

namespace ssd::ftl {
namespace bucket_oldest_test {

TEST(BucketOldest, TheFrontIsTheBucketsOldestMembersInOrder) {
  const uint32_t dies = 2, ppb = 4, blocks = 200;
  BigTable<uint64_t> closed_at;
  closed_at.assign(blocks, 0);
  BucketOldest index;
  index.reset(dies, ppb, &closed_at);
  std::vector<int> bucket(blocks, -1);  // the model: each block's valid count, -1 in none
  Random rng(17);
  auto die_of = [&](uint32_t b) { return b % dies; };
  uint64_t walks = 0;
  for (int step = 0; step < 20000; ++step) {
    const uint32_t b = uint32_t(rng.below(blocks));
    if (bucket[b] >= 0) {  // leaves; then, now and then, enters another (a block moved by an invalidation)
      index.left(die_of(b), uint32_t(bucket[b]), b);
      bucket[b] = -1;
    }
    if (rng.below(3) != 0) {
      // Few distinct closing times, so that ties (broken by id) happen.
      if (rng.below(4) == 0) closed_at[b] = rng.below(50);
      bucket[b] = int(rng.below(ppb));
      index.entered(die_of(b), uint32_t(bucket[b]), b);
    }
    const uint32_t die = uint32_t(rng.below(dies)), v = uint32_t(rng.below(ppb));
    std::vector<uint32_t> members;
    for (uint32_t i = 0; i < blocks; ++i)
      if (die_of(i) == die && bucket[i] == int(v)) members.push_back(i);
    std::sort(members.begin(), members.end(), [&](uint32_t x, uint32_t y) {
      return v == 0 ? x < y : closed_at[x] < closed_at[y] || (closed_at[x] == closed_at[y] && x < y);
    });
    bool complete = false;
    const std::vector<uint32_t> front = index.front(die, v, complete);
    ASSERT_LE(front.size(), members.size()) << "step " << step;
    ASSERT_TRUE(std::equal(front.begin(), front.end(), members.begin())) << "step " << step;
    if (complete) {
      ASSERT_EQ(front.size(), members.size()) << "step " << step;
    }
    if (!members.empty()) {
      ASSERT_EQ(index.next_occupied(die, v), v) << "step " << step;
    }
    const uint32_t oldest = index.oldest(die, v, [&](auto&& each) {
      ++walks;
      for (uint32_t m : members) each(m);
    });
    ASSERT_EQ(oldest, members.empty() ? BucketOldest::kNone : members[0]) << "step " << step;
  }
  EXPECT_GT(walks, 0u);  // (the walk, too, was tried)
}

// The FTL's protected parts, for a look at its cost-benefit victim.
class Probe : public PageFtl {
 public:
  using PageFtl::PageFtl;
  // The victim through the index, and the one the picker takes from the
  // die's reclaimable blocks listed in block order.
  uint32_t indexed(uint32_t die) { return cost_benefit_victim(die); }
  uint32_t listed(uint32_t die) {
    std::vector<uint32_t> candidates;
    std::vector<uint16_t> valid;
    for (uint32_t b = die * geo_.blocks_per_die(); b < (die + 1) * geo_.blocks_per_die(); ++b)
      if (is_reclaimable(b)) candidates.push_back(b), valid.push_back(blocks_[b].valid);
    if (candidates.empty()) return kNone;
    VictimPicker picker(GcPolicy::CostBenefit, 1, geo_.pages_per_block, 0);
    return picker.pick(candidates, valid, closed_at_, seq_);
  }
  uint32_t dies() const { return geo_.dies(); }
};

class CostBenefitVictim : public testing::TestWithParam<uint32_t> {};

TEST_P(CostBenefitVictim, IsThePickFromTheListedBlocks) {
  ftl_test::Case c{"cost-benefit", "page", {}};
  FtlParams params = ftl_test::small_params(c);
  params.options.text["ftl.gc.policy"] = "cost-benefit";
  params.geometry.pages_per_block = GetParam();
  params.geometry.blocks_per_plane = std::max(24u, 24 * 16 / GetParam());  // (small blocks: more of them)
  FlashMedia media(params.geometry, false);
  Probe ftl(params, media);
  FtlWork work;
  work.record_ops = false;
  const uint64_t span = ftl.user_pages();
  Random rng(23);
  uint64_t compared = 0;
  for (uint64_t i = 0; i < 6 * span; ++i) {
    // Hot and cold halves, then trims now and then: blocks of every valid count and age.
    const uint64_t lpn = rng.below(4) ? rng.below(span / 4) : rng.below(span);
    work.clear();
    if (i % 97 == 0)
      ftl.trim(Lpn(uint32_t(lpn)), work);
    else
      ftl.write(Lpn(uint32_t(lpn)), i, work);
    if (i % 7) continue;
    for (uint32_t d = 0; d < ftl.dies(); ++d, ++compared)
      ASSERT_EQ(ftl.indexed(d), ftl.listed(d)) << "write " << i << " die " << d;
    if (i % 1001 == 0) {
      ASSERT_NO_THROW(ftl.check_consistency()) << "write " << i;
    }
  }
  EXPECT_GT(compared, 1000u);
  EXPECT_GT(ftl.stats().gc_pages_moved, 0u);
}

// Four pages a block (about a pick a write, long buckets), 16, and 64.
INSTANTIATE_TEST_SUITE_P(PagesPerBlock, CostBenefitVictim, testing::Values(4u, 16u, 64u));

TEST(CostBenefitOrder, IsExactWhereAFloatingScoreWouldRound) {
  // P = 256. Block a: 157 valid pages, age 2058252770591695260; block b: 208
  // valid, age 5624142920916160935. Times 2 x 157 x 208, a's score is
  // (age + 1) x 99 x 208 = 42383541052024188814512 and b's (age + 1) x 48 x
  // 157 = 42383541052024188813696: a is ahead by 0.0125 in 6.5e17, and a
  // long double score (the policy's before) puts b ahead (found by a search
  // of such near-ties).
  EXPECT_EQ(VictimPicker::cost_benefit_order(2058252770591695260u, 157, 5624142920916160935u, 208, 256), +1);
  EXPECT_EQ(VictimPicker::cost_benefit_order(5624142920916160935u, 208, 2058252770591695260u, 157, 256), -1);
  // A tie, P = 4: age + 1 = 3, 1 valid (3 x 3 / 2) against age + 1 = 27, 3 valid (27 x 1 / 6).
  EXPECT_EQ(VictimPicker::cost_benefit_order(2, 1, 26, 3, 4), 0);
  // Small numbers: age 9 (+1 = 10), 1 of 4 valid: 15; age 39, 2 of 4 valid: 20.
  EXPECT_EQ(VictimPicker::cost_benefit_order(9, 1, 39, 2, 4), -1);
  // An empty block beats any other, and ties another empty one.
  EXPECT_EQ(VictimPicker::cost_benefit_order(0, 0, ~uint64_t(0) - 1, 1, 4), +1);
  EXPECT_EQ(VictimPicker::cost_benefit_order(5, 0, 9, 0, 4), 0);
  // The largest ages and page counts do not overflow.
  EXPECT_EQ(VictimPicker::cost_benefit_order(~uint64_t(0), 1, ~uint64_t(0), 2, 65535), +1);
}

}  // namespace bucket_oldest_test
}  // namespace ssd::ftl
