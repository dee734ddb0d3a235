// The --store-data byte store (model/sata/data_store.h) and its option.
#include <gtest/gtest.h>

#include <vector>

#include "model/sata/data_store.h"
#include "model/ftl/ftl.h"
#include "model/sim/options.h"
#include "tests/model/sim_harness.h"

namespace data_store_test {

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((i * 131 + seed * 7 + 1) % 251);
  return v;
}

std::vector<unsigned char> read(const ssd::DataStore& s, uint64_t offset, size_t n) {
  std::vector<unsigned char> v(n, 0xAA);  // not zero: a read must overwrite every byte
  s.read(offset, v.data(), n);
  return v;
}

TEST(DataStore, NeverWrittenReadsAsZeros) {
  ssd::DataStore s(4096);
  EXPECT_EQ(read(s, 123456789, 10000), std::vector<unsigned char>(10000, 0));
  EXPECT_EQ(s.chunks(), 0u);  // reading allocates nothing
}

TEST(DataStore, UnalignedWriteAcrossChunksReadsBack) {
  ssd::DataStore s(4096);
  const auto data = pattern(10000, 1);
  s.write(4096 * 3 - 100, data.data(), data.size());  // chunks 2..5 ([12188, 22188))
  EXPECT_EQ(s.chunks(), 4u);
  EXPECT_EQ(read(s, 4096 * 3 - 100, data.size()), data);
  // The bytes around it were never written.
  auto around = read(s, 4096 * 2, 4096 * 4);
  for (size_t i = 0; i < around.size(); ++i) {
    const uint64_t at = 4096 * 2 + i;
    const bool inside = at >= 4096 * 3 - 100 && at < 4096 * 3 - 100 + 10000;
    ASSERT_EQ(around[i], inside ? data[at - (4096 * 3 - 100)] : 0) << "byte " << at;
  }
}

TEST(DataStore, OverwriteReplacesOnlyItsRange) {
  ssd::DataStore s(512);
  const auto a = pattern(2048, 1), b = pattern(300, 2);
  s.write(0, a.data(), a.size());
  s.write(700, b.data(), b.size());
  auto want = a;
  std::copy(b.begin(), b.end(), want.begin() + 700);
  EXPECT_EQ(read(s, 0, 2048), want);
}

TEST(DataStore, TrimZeroesTheRangeAndFreesWholeChunks) {
  ssd::DataStore s(4096);
  const auto a = pattern(4 * 4096, 3);
  s.write(0, a.data(), a.size());
  s.zero(4096 - 10, 4096 + 20);  // tail of chunk 0, all of chunk 1, head of chunk 2
  EXPECT_EQ(s.chunks(), 3u);
  auto want = a;
  std::fill(want.begin() + 4096 - 10, want.begin() + 2 * 4096 + 10, 0);
  EXPECT_EQ(read(s, 0, a.size()), want);
  s.zero(0, 1u << 20);  // more than was ever written
  EXPECT_EQ(s.chunks(), 0u);
  EXPECT_EQ(read(s, 0, a.size()), std::vector<unsigned char>(a.size(), 0));
}

TEST(StoreDataOption, DefaultsOffAndParsesAsAFlag) {
  EXPECT_FALSE(ssdtest::parse({}).config().store_data);
  EXPECT_TRUE(ssdtest::parse({"--store-data"}).config().store_data);
  EXPECT_TRUE(ssdtest::parse({"--store-data=true"}).config().store_data);
  EXPECT_FALSE(ssdtest::parse({"--store-data=false"}).config().store_data);
  try {
    ssdtest::parse({"--store-data=maybe"});
    FAIL() << "accepted --store-data=maybe";
  } catch (const ssd::OptionError& e) {
    EXPECT_NE(std::string(e.what()).find("store-data"), std::string::npos) << e.what();
  }
}

// This binary links ssdsim::model, the static archive the install exports:
// the page FTL's self-registration must have survived the static link.
TEST(Library, StaticArchiveKeepsFtlRegistrations) {
  EXPECT_EQ(ssd::ftl::FtlRegistry::instance().list().count("page"), 1u);
}

}  // namespace data_store_test

