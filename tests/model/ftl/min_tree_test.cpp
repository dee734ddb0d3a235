// The tournament tree of static wear levelling (model/ftl/page/min_tree.h)
// against a pass over the values: the least and its first position after
// every change, over sizes that are and are not powers of two.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "model/ftl/page/min_tree.h"
#include "model/sim/random.h"

namespace ssd::ftl {
namespace min_tree_test {

TEST(MinTree, LeastAndFirstAgreeWithAPass) {
  for (uint32_t n : {1u, 2u, 3u, 7u, 16u, 100u}) {
    MinTree tree;
    tree.reset(n);
    std::vector<uint32_t> plain(n, MinTree::kNone);
    EXPECT_EQ(tree.least(), MinTree::kNone);
    EXPECT_EQ(tree.first_least(), MinTree::kNone);
    Random rng(n);
    for (int step = 0; step < 4000; ++step) {
      const uint32_t i = uint32_t(rng.below(n));
      // Few distinct values, so ties are common; some positions emptied.
      const uint32_t v = rng.below(5) == 0 ? MinTree::kNone : uint32_t(rng.below(6));
      tree.set(i, v);
      plain[i] = v;
      const auto least = std::min_element(plain.begin(), plain.end());  // (the first of the least)
      ASSERT_EQ(tree.least(), *least) << "n " << n << " step " << step;
      ASSERT_EQ(tree.first_least(), *least == MinTree::kNone ? MinTree::kNone : uint32_t(least - plain.begin()))
          << "n " << n << " step " << step;
      ASSERT_EQ(tree.value(i), v);
    }
  }
}

}  // namespace min_tree_test
}  // namespace ssd::ftl
