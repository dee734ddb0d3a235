// The shared building blocks: number parsing and the buffered line reader.

#include <functional>

#include "tests/traces/trace_test_util.h"
#include "traces/buffered_input.h"
#include "traces/text_fields.h"

using namespace trace_test;
using namespace traces::detail;

namespace fields_test {
std::string problem(std::function<void()> f) {
  try {
    f();
  } catch (const BadRecord& b) {
    return b.message;
  }
  return "no error";
}

TEST(Fields, UnsignedIntegers) {
  EXPECT_EQ(parse_u64("0", "x"), 0u);
  EXPECT_EQ(parse_u64("18446744073709551615", "x"), UINT64_MAX);
  EXPECT_EQ(problem([] { parse_u64("18446744073709551616", "size"); }), "field 'size': out of range \"18446744073709551616\"");
  EXPECT_EQ(problem([] { parse_u64("-8", "size"); }), "field 'size': negative value \"-8\"");
  EXPECT_EQ(problem([] { parse_u64("", "size"); }), "field 'size': missing value \"\"");
  EXPECT_EQ(problem([] { parse_u64("12a", "size"); }), "field 'size': not a number \"12a\"");
  EXPECT_EQ(problem([] { parse_u64("+1", "size"); }), "field 'size': not a number \"+1\"");
  EXPECT_EQ(problem([] { parse_u32("4294967296", "dev"); }), "field 'dev': out of range \"4294967296\"");
  EXPECT_EQ(problem([] { parse_u64(std::string_view("1\0", 2), "x"); }), "field 'x': not a number \"1\\x00\"");
}

TEST(Fields, FixedPointDecimals) {
  EXPECT_EQ(parse_decimal("0.000185", 9, "t"), 185000u);
  EXPECT_EQ(parse_decimal("1.5", 9, "t"), 1500000000u);
  EXPECT_EQ(parse_decimal("12", 9, "t"), 12000000000u);
  EXPECT_EQ(parse_decimal(".25", 3, "t"), 250u);
  EXPECT_EQ(parse_decimal("7.123456789123", 9, "t"), 7123456789u);  // extra digits truncated
  EXPECT_EQ(parse_decimal("938513000.9", 0, "t"), 938513000u);
  EXPECT_EQ(problem([] { parse_decimal("1.", 9, "t"); }), "field 't': not a number \"1.\"");
  EXPECT_EQ(problem([] { parse_decimal("1.2.3", 9, "t"); }), "field 't': not a number \"1.2.3\"");
  EXPECT_EQ(problem([] { parse_decimal("-0.5", 9, "t"); }), "field 't': negative value \"-0.5\"");
  EXPECT_EQ(problem([] { parse_decimal("99999999999.0", 9, "t"); }), "field 't': out of range \"99999999999.0\"");
}

TEST(Fields, Splitting) {
  std::string_view f[4];
  EXPECT_EQ(split("a, b ,,c", ',', f, 4), 4u);
  EXPECT_EQ(f[1], "b");
  EXPECT_EQ(f[2], "");
  EXPECT_EQ(split("1,2,3,4,5,6", ',', f, 4), 6u);  // counts beyond the stored ones
  EXPECT_EQ(split_ws("  7,0 \t 0   1 ", f, 4), 3u);
  EXPECT_EQ(f[0], "7,0");
  EXPECT_EQ(f[2], "1");
  EXPECT_EQ(split_ws("   ", f, 4), 0u);
  EXPECT_EQ(printable(std::string(100, 'a')).size(), 43u);
}

TEST(LineReader, TerminatorsAndLongLines) {
  TempDir dir;
  std::string big(LineReader::kMaxLine + 1, 'x');
  // Lines that straddle the 1 MiB buffer boundary must come out whole.
  std::string filler;
  for (int i = 0; filler.size() < (1u << 20) + 100; ++i) filler += "line " + std::to_string(i) + "\r\n";
  write_file(dir.file("t"), "a\r\nb\n\n" + big + "\nc\n" + filler + "last");
  LineReader lr(dir.file("t"));
  std::string_view l;
  ASSERT_TRUE(lr.next(l));
  EXPECT_EQ(l, "a");
  ASSERT_TRUE(lr.next(l));
  EXPECT_EQ(l, "b");
  ASSERT_TRUE(lr.next(l));
  EXPECT_EQ(l, "");
  ASSERT_TRUE(lr.next(l));
  EXPECT_TRUE(lr.too_long());
  EXPECT_EQ(lr.line_number(), 4u);
  ASSERT_TRUE(lr.next(l));
  EXPECT_FALSE(lr.too_long());
  EXPECT_EQ(l, "c");
  for (int i = 0; i < 1000000; ++i) {
    ASSERT_TRUE(lr.next(l));
    if (l == "last") break;
    ASSERT_EQ(l, "line " + std::to_string(i));
  }
  EXPECT_EQ(l, "last");
  EXPECT_FALSE(lr.next(l));
}

}  // namespace fields_test
