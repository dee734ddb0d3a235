// The text readers (fio, DiskSim/MQSim, MSR, SPC, Alibaba) on the samples.
// Expected values: SOURCES.md, independent line tallies done here, and the
// blktrace capture the derived files were made from.

#include <algorithm>
#include <cmath>
#include <tuple>

#include "tests/traces/trace_test_util.h"

using namespace trace_test;
using traces::TraceOp;

namespace text_samples_test {

struct Line {
  uint64_t number;
  std::vector<std::string> tok;
};

std::vector<Line> lines_of(const std::string& path, char delim = 0) {
  std::vector<Line> out;
  std::ifstream in(path);
  std::string l;
  for (uint64_t n = 1; std::getline(in, l); ++n)
    if (!l.empty()) out.push_back({n, tokens(l, delim)});
  return out;
}

TEST(FioSamples, FioMixIolog) {
  // Independent tally of the v3 log: "usec file action [offset length]".
  auto lines = lines_of(sample("generated/fio_mix.iolog"));
  ASSERT_EQ(lines[0].tok, (std::vector<std::string>{"fio", "version", "3", "iolog"}));
  std::vector<Line> io;
  for (const Line& l : lines)
    if (l.tok.size() == 5) io.push_back(l);
  uint64_t read_bytes = 0, write_bytes = 0;
  for (const Line& l : io) (l.tok[2] == "read" ? read_bytes : write_bytes) += std::stoull(l.tok[4]);

  auto r = traces::open_trace(sample("generated/fio_mix.iolog"), "", {});
  auto recs = read_all(*r);
  EXPECT_EQ(count(recs, TraceOp::Read), 208u);  // SOURCES.md
  EXPECT_EQ(count(recs, TraceOp::Write), 119u);
  ASSERT_EQ(recs.size(), io.size());
  EXPECT_EQ(bytes(recs, TraceOp::Read), read_bytes);
  EXPECT_EQ(bytes(recs, TraceOp::Write), write_bytes);
  const uint64_t t0 = std::stoull(io.front().tok[0]);
  for (size_t i : {size_t{0}, io.size() - 1}) {
    SCOPED_TRACE(i);
    EXPECT_EQ(recs[i].time_ns, (std::stoull(io[i].tok[0]) - t0) * 1000);  // v3 stamps are µs
    EXPECT_EQ(recs[i].offset, std::stoull(io[i].tok[3]));
    EXPECT_EQ(recs[i].bytes, std::stoull(io[i].tok[4]));
    EXPECT_EQ(recs[i].position, io[i].number);
    EXPECT_EQ(recs[i].device, 0u);
  }
  EXPECT_EQ(stat(r->stats().ignored, "fio add"), 1u);
  EXPECT_EQ(stat(r->stats().ignored, "fio open"), 1u);
  EXPECT_EQ(stat(r->stats().ignored, "fio close"), 1u);

  // SOURCES.md: the same I/Os appear as Q events in the blktrace capture
  // (offset = sector * 512). Compare as multisets of (op, offset, bytes).
  auto key = [](const Rec& x) { return std::make_tuple(int(x.op), x.offset, x.bytes); };
  std::vector<std::tuple<int, uint64_t, uint64_t>> fio_io, q;
  for (const Rec& x : recs) fio_io.push_back(key(x));
  for (const Rec& x : read_all(sample("generated/loop0"))) q.push_back(key(x));
  std::sort(fio_io.begin(), fio_io.end());
  std::sort(q.begin(), q.end());
  EXPECT_TRUE(std::includes(q.begin(), q.end(), fio_io.begin(), fio_io.end()));
}

// DiskSim ASCII sample from MQSim: tally the columns here and compare.
void check_mqsim(const std::string& file, uint64_t n, uint64_t writes, uint64_t reads, double last_arrival_s) {
  auto lines = lines_of(sample("mqsim/" + file));
  ASSERT_EQ(lines.size(), n);
  uint64_t w = 0, rd = 0, wbytes = 0, rbytes = 0;
  uint32_t max_dev = 0;
  for (const Line& l : lines) {
    bool write = l.tok[4] == "0";
    (write ? w : rd)++;
    (write ? wbytes : rbytes) += std::stoull(l.tok[3]) * 512;
    max_dev = std::max<uint32_t>(max_dev, std::stoul(l.tok[1]));
  }
  EXPECT_EQ(w, writes);  // SOURCES.md
  EXPECT_EQ(rd, reads);

  auto recs = read_all(sample("mqsim/" + file));
  ASSERT_EQ(recs.size(), n);
  EXPECT_EQ(count(recs, TraceOp::Write), writes);
  EXPECT_EQ(count(recs, TraceOp::Read), reads);
  EXPECT_EQ(bytes(recs, TraceOp::Write), wbytes);
  EXPECT_EQ(bytes(recs, TraceOp::Read), rbytes);
  uint32_t dev = 0;
  for (const Rec& x : recs) dev = std::max(dev, x.device);
  EXPECT_EQ(dev, max_dev);
  const uint64_t first = std::stoull(lines.front().tok[0]);
  EXPECT_EQ(recs.front().time_ns, 0u);
  EXPECT_EQ(recs.back().time_ns, std::stoull(lines.back().tok[0]) - first);
  EXPECT_NEAR((recs.back().time_ns + first) / 1e9, last_arrival_s, 0.005);  // "last arrival" in SOURCES.md
  EXPECT_EQ(recs.back().offset, std::stoull(lines.back().tok[2]) * 512);
  EXPECT_EQ(recs.back().position, lines.back().number);
}

TEST(DiskSimSamples, MqsimTpcc) {
  check_mqsim("tpcc-small.trace", 6999, 2618, 4381, 1.075);
  // SOURCES.md: devices 0..15.
  auto recs = read_all(sample("mqsim/tpcc-small.trace"));
  uint32_t hi = 0;
  for (const Rec& x : recs) hi = std::max(hi, x.device);
  EXPECT_EQ(hi, 15u);
}

TEST(DiskSimSamples, MqsimWsrch) {
  // SOURCES.md counts 24782 lines (newlines); the last line has none, so
  // there are 4 + 24779 = 24783 records.
  check_mqsim("wsrch-small.trace", 24783, 4, 24779, 60.07);
}

// The derived files hold the 551 R/W Q events of the loop0 capture, one row
// each; times lose precision to the format's resolution.
void check_derived(const std::string& file, uint64_t resolution_ns) {
  auto q = only(read_all(sample("generated/loop0")), {TraceOp::Read, TraceOp::Write});
  ASSERT_EQ(q.size(), 551u);
  auto recs = read_all(sample("generated/" + file));
  ASSERT_EQ(recs.size(), q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    SCOPED_TRACE(file + " record " + std::to_string(i));
    EXPECT_EQ(recs[i].op, q[i].op);
    EXPECT_EQ(recs[i].offset, q[i].offset);
    EXPECT_EQ(recs[i].bytes, q[i].bytes);
    EXPECT_EQ(recs[i].device, 0u);  // disk / ASU / device 0
    EXPECT_EQ(recs[i].position, i + 1);
    EXPECT_LE(std::llabs(int64_t(recs[i].time_ns) - int64_t(q[i].time_ns)), int64_t(resolution_ns));
  }
}

TEST(DerivedSamples, MsrHasTheBlktraceQueueEvents) { check_derived("loop0_q.msr.csv", 100); }
TEST(DerivedSamples, SpcHasTheBlktraceQueueEvents) { check_derived("loop0_q.spc", 1000); }
TEST(DerivedSamples, DiskSimHasTheBlktraceQueueEvents) { check_derived("loop0_q.disksim.trace", 0); }
TEST(DerivedSamples, AlibabaHasTheBlktraceQueueEvents) { check_derived("loop0_q.alibaba.csv", 1000); }

TEST(DerivedSamples, MsrRowsTallied) {
  // Column check against the CSV itself: Type and Size.
  auto lines = lines_of(sample("generated/loop0_q.msr.csv"), ',');
  auto recs = read_all(sample("generated/loop0_q.msr.csv"));
  ASSERT_EQ(recs.size(), lines.size());
  const uint64_t t0 = std::stoull(lines[0].tok[0]);
  for (size_t i = 0; i < recs.size(); ++i) {
    EXPECT_EQ(recs[i].op, lines[i].tok[3] == "Read" ? TraceOp::Read : TraceOp::Write);
    EXPECT_EQ(recs[i].bytes, std::stoull(lines[i].tok[5]));
    EXPECT_EQ(recs[i].time_ns, (std::stoull(lines[i].tok[0]) - t0) * 100);
  }
}

TEST(Detection, EverySample) {
  const std::map<std::string, std::string> expected = {
      {"generated/fio_mix.iolog", "fio"},
      {"generated/loop0.blkparse.txt", "blkparse"},
      {"generated/loop0.blktrace.0", "blktrace"},
      {"generated/loop0.blktrace.1", "blktrace"},
      {"generated/loop0.merged.bin", "blktrace"},
      {"generated/loop0be.blktrace.0", "blktrace"},
      {"generated/loop0be.blktrace.1", "blktrace"},
      {"generated/loop0_q.alibaba.csv", "alibaba"},
      {"generated/loop0_q.disksim.trace", "disksim"},
      {"generated/loop0_q.msr.csv", "msr"},
      {"generated/loop0_q.spc", "spc"},
      {"mqsim/tpcc-small.trace", "disksim"},
      {"mqsim/wsrch-small.trace", "disksim"},
      {"apps/build.blkparse.txt", "blkparse"},
      {"apps/build.blktrace.0", "blktrace"},
      {"apps/build.blktrace.1", "blktrace"},
      {"apps/fstrim-desktop.blktrace.0", "blktrace"},
      {"apps/fstrim-desktop.blktrace.1", "blktrace"},
  };
  // Every data file in traces/samples has an expected format.
  const fs::path root = sample("");
  size_t seen = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || ext == ".md" || ext == ".json" || e.path().filename() == "LICENSE.MQSim") continue;
    const std::string rel = fs::relative(e.path(), root).generic_string();
    auto it = expected.find(rel);
    if (it == expected.end()) {
      ADD_FAILURE() << "sample without an expected format: " << rel;
      continue;
    }
    ++seen;
    EXPECT_EQ(traces::detect_format(e.path().string()), it->second) << rel;
    EXPECT_NO_THROW(read_all(e.path().string())) << rel;  // and the detected reader reads it
  }
  EXPECT_EQ(seen, expected.size());
  // NAME prefixes of the per-CPU files.
  for (const char* prefix : {"generated/loop0", "generated/loop0be", "apps/build", "apps/fstrim-desktop"})
    EXPECT_EQ(traces::detect_format(sample(prefix)), "blktrace") << prefix;
}

TEST(Detection, UnknownContentNamesTheFile) {
  TempDir dir;
  for (const char* content : {"hello world\n", "", "\x01\x02\x03\x04 binary", "1,2,3\n4,5,6\n"}) {
    write_file(dir.file("mystery.dat"), content);
    try {
      traces::detect_format(dir.file("mystery.dat"));
      ADD_FAILURE() << "detected a format in " << content;
    } catch (const traces::TraceError& e) {
      EXPECT_NE(std::string(e.what()).find(dir.file("mystery.dat")), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("unknown trace format"), std::string::npos);
    }
  }
  EXPECT_THROW(traces::detect_format(dir.file("missing")), traces::TraceError);
  EXPECT_THROW(traces::open_trace(sample("generated/loop0_q.spc"), "nosuch", {}), traces::TraceError);
}

TEST(Detection, HeadersAndVariants) {
  TempDir dir;
  const std::pair<const char*, const char*> cases[] = {
      {"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n128166372003061629,hm,1,Read,3224019456,16384,1331\n", "msr"},
      {"128166372003061629,hm,1,write,3224019456,16384,1331\r\n", "msr"},
      {"fio version 2 iolog\n/dev/sdb add\n", "fio"},
      {"0,20941264,8192,W,0.551706\n", "spc"},
      {"0,20941264,8192,w,0.551706,extra,fields\n", "spc"},
      {"3,W,1024,4096,1577808000000047\n", "alibaba"},
      {"0.5 0 100 8 1\n", "disksim"},
      {"Input file sda.blktrace.0 added\n  8,0    0        1     0.000000000   123  Q  WS 8 + 8 [jbd2]\n", "blkparse"},
  };
  for (const auto& [content, format] : cases) {
    write_file(dir.file("t"), content);
    EXPECT_EQ(traces::detect_format(dir.file("t")), format) << content;
  }
}

}  // namespace text_samples_test
