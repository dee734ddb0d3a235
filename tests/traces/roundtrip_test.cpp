// Writers and readers agree: a random request list written in each format
// reads back identical, up to what the format can hold (ops, alignment,
// time resolution, device numbering).

#include <random>

#include "tests/traces/trace_test_util.h"

using namespace trace_test;
using traces::TraceOp;

namespace roundtrip_test {

struct Caps {
  const char* format;
  bool all_ops;          // Discard and Flush too, or only Read/Write
  uint64_t align;        // offset and size granularity
  uint64_t time_res_ns;  // timestamps are truncated to this
  bool dev_t_devices;    // device is a dev_t (major << 20 | minor)
  bool devices_renumbered;  // fio: files numbered by first appearance
};

const Caps kCaps[] = {
    {"blktrace", true, 512, 1, true, false},   {"blkparse", true, 512, 1, true, false},
    {"fio", true, 1, 1000, false, true},       {"msr", false, 1, 100, false, false},
    {"spc", false, 512, 1000, false, false},   {"alibaba", false, 1, 1000, false, false},
    {"disksim", false, 512, 1, false, false},
};

std::vector<traces::TraceRecord> random_requests(const Caps& caps, unsigned seed, size_t n) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
  std::vector<traces::TraceRecord> out;
  uint64_t t = 123456789 + uniform(0, 999);  // not 0: readers make times relative
  for (size_t i = 0; i < n; ++i) {
    traces::TraceRecord r;
    t += uniform(0, 3) == 0 ? 0 : uniform(1, 5000000);  // some simultaneous arrivals
    r.time_ns = t;
    r.op = static_cast<TraceOp>(uniform(0, caps.all_ops ? 3 : 1));
    uint32_t dev = static_cast<uint32_t>(uniform(0, 5));
    r.device = caps.dev_t_devices ? (uint32_t(uniform(1, 259)) << 20 | dev * 16) : dev;
    if (r.op == TraceOp::Flush) {
      r.offset = r.bytes = 0;
    } else {
      r.offset = uniform(0, (uint64_t{1} << 40) / caps.align) * caps.align;
      r.bytes = uniform(1, (r.op == TraceOp::Discard ? 64u << 20 : 1u << 20) / caps.align) * caps.align;
    }
    out.push_back(r);
  }
  return out;
}

TEST(RoundTrip, EveryFormat) {
  TempDir dir;
  for (const Caps& caps : kCaps) {
    for (unsigned seed : {1u, 2u, 3u}) {
      SCOPED_TRACE(std::string(caps.format) + " seed " + std::to_string(seed));
      const auto in = random_requests(caps, seed, 3000);
      const std::string path = dir.file(std::string("rt-") + caps.format + std::to_string(seed));
      write_trace(path, caps.format, in);

      // Read back through detection, as a user would.
      ASSERT_EQ(traces::detect_format(path), caps.format);  // blktrace: a NAME prefix
      auto r = traces::open_trace(path, "", {});
      auto out = read_all(*r);
      ASSERT_EQ(out.size(), in.size());
      EXPECT_TRUE(r->stats().skipped.empty());

      const uint64_t res = caps.time_res_ns, t0 = in[0].time_ns / res;
      std::map<uint32_t, uint32_t> renumbered;
      for (size_t i = 0; i < in.size(); ++i) {
        SCOPED_TRACE("record " + std::to_string(i));
        EXPECT_EQ(out[i].time_ns, (in[i].time_ns / res - t0) * res);
        EXPECT_EQ(out[i].op, in[i].op);
        EXPECT_EQ(out[i].offset, in[i].offset);
        EXPECT_EQ(out[i].bytes, in[i].bytes);
        uint32_t dev = in[i].device;
        if (caps.devices_renumbered) dev = renumbered.emplace(dev, uint32_t(renumbered.size())).first->second;
        EXPECT_EQ(out[i].device, dev);
        if (::testing::Test::HasFailure()) return;  // one bad record is enough to see
      }
    }
  }
}

TEST(RoundTrip, PositionsAndIgnoredEvents) {
  TempDir dir;
  const auto in = random_requests(kCaps[0], 7, 100);

  write_trace(dir.file("b"), "blktrace", in);
  auto bt = traces::open_trace(dir.file("b"), "", {});
  auto recs = read_all(*bt);
  ASSERT_EQ(recs.size(), 100u);
  for (size_t i = 0; i < recs.size(); ++i) {
    EXPECT_EQ(recs[i].position, 64 + 96 * i);  // note, then Q + C per record
    EXPECT_EQ(recs[i].source, dir.file("b.blktrace.0"));
  }
  EXPECT_EQ(stat(bt->stats().ignored, "blktrace action C"), 100u);
  EXPECT_EQ(stat(bt->stats().ignored, "blktrace note process"), 1u);

  write_trace(dir.file("p"), "blkparse", in);
  auto bp = traces::open_trace(dir.file("p"), "", {});
  recs = read_all(*bp);
  ASSERT_EQ(recs.size(), 100u);
  for (size_t i = 0; i < recs.size(); ++i) EXPECT_EQ(recs[i].position, 2 * i + 1);
  EXPECT_EQ(stat(bp->stats().ignored, "blkparse action C"), 100u);
  EXPECT_GT(stat(bp->stats().ignored, "blkparse summary"), 0u);
  // Both writers describe the same requests.
  auto from_binary = read_all(dir.file("b"));
  for (size_t i = 0; i < recs.size(); ++i) {
    EXPECT_EQ(recs[i].time_ns, from_binary[i].time_ns);
    EXPECT_EQ(recs[i].op, from_binary[i].op);
    EXPECT_EQ(recs[i].offset, from_binary[i].offset);
    EXPECT_EQ(recs[i].device, from_binary[i].device);
  }
}

TEST(RoundTrip, WritersRejectWhatTheFormatCannotHold) {
  TempDir dir;
  traces::TraceRecord flush;
  flush.op = TraceOp::Flush;
  traces::TraceRecord odd;
  odd.op = TraceOp::Read;
  odd.offset = 100;
  odd.bytes = 512;
  for (const char* f : {"msr", "spc", "alibaba", "disksim"}) {
    auto w = traces::create_trace_writer(dir.file(std::string("x.") + f), f);
    EXPECT_THROW(w->write(flush), traces::TraceError) << f;
  }
  for (const char* f : {"spc", "disksim", "blktrace", "blkparse"}) {
    auto w = traces::create_trace_writer(dir.file(std::string("y.") + f), f);
    EXPECT_THROW(w->write(odd), traces::TraceError) << f;
  }
  // A power cut: only ssdsim's fio iolog extension holds one.
  traces::TraceRecord cut;
  cut.op = TraceOp::PowerFail;
  for (const char* f : {"msr", "spc", "alibaba", "disksim", "blktrace", "blkparse"}) {
    auto w = traces::create_trace_writer(dir.file(std::string("c.") + f), f);
    EXPECT_THROW(w->write(cut), traces::TraceError) << f;
  }
  EXPECT_THROW(traces::create_trace_writer(dir.file("z"), "nosuch"), traces::TraceError);
  EXPECT_THROW(traces::create_trace_writer("/nonexistent/dir/x", "msr"), traces::TraceError);
}

}  // namespace roundtrip_test
