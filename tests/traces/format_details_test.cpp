// Per-format semantics on small hand-written inputs: op mapping, units,
// what is ignored and under which name, device numbering, options.

#include <cstring>

#include "tests/traces/trace_test_util.h"

using namespace trace_test;
using traces::TraceOp;

namespace format_details_test {

struct Expect {
  uint64_t time_ns;
  TraceOp op;
  uint64_t offset, bytes;
  uint32_t device;
};

void expect_records(const std::vector<Rec>& got, const std::vector<Expect>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("record " + std::to_string(i));
    EXPECT_EQ(got[i].time_ns, want[i].time_ns);
    EXPECT_EQ(got[i].op, want[i].op);
    EXPECT_EQ(got[i].offset, want[i].offset);
    EXPECT_EQ(got[i].bytes, want[i].bytes);
    EXPECT_EQ(got[i].device, want[i].device);
  }
}

struct Read {
  std::vector<Rec> recs;
  traces::ReaderStats stats;
};

Read read(const TempDir& dir, const std::string& name, const std::string& content, const std::string& format,
          traces::ReaderOptions opts = {}) {
  write_file(dir.file(name), content);
  auto r = traces::open_trace(dir.file(name), format, opts);
  Read out;
  out.recs = read_all(*r);
  out.stats = r->stats();
  return out;
}

TEST(FormatDetails, FioVersion2WaitsFilesAndActions) {
  TempDir dir;
  auto r = read(dir, "v2.iolog",
                "fio version 2 iolog\n/dev/a add\n/dev/b add\n/dev/a open\n/dev/a read 0 4096\n"
                "/dev/a wait 1500 0\n/dev/b write 512 512\n/dev/b sync 0 0\n/dev/a trim 4096 8192\n"
                "/dev/a read 8192 0\n/dev/a wait 20 0\n/dev/a datasync 7 7\n/dev/a close\n",
                "fio");
  // "wait N" advances the clock by N µs; devices by first appearance.
  expect_records(r.recs, {{0, TraceOp::Read, 0, 4096, 0},
                          {1500000, TraceOp::Write, 512, 512, 1},
                          {1500000, TraceOp::Flush, 0, 0, 1},
                          {1500000, TraceOp::Discard, 4096, 8192, 0},
                          {1520000, TraceOp::Flush, 0, 0, 0}});
  EXPECT_EQ(r.stats.ignored, (std::map<std::string, uint64_t>{{"fio header", 1},
                                                              {"fio add", 2},
                                                              {"fio open", 1},
                                                              {"fio close", 1},
                                                              {"fio wait", 2},
                                                              {"zero-length request", 1}}));
}

TEST(FormatDetails, FioVersion3TimestampsAreMicroseconds) {
  TempDir dir;
  auto r = read(dir, "v3.iolog",
                "fio version 3 iolog\n100 /x add\n100 /x open\n250 /x write 0 4096\n260 /x wait 50 0\n"
                "400 /y read 4096 512\n",
                "fio");
  expect_records(r.recs, {{0, TraceOp::Write, 0, 4096, 0}, {150000, TraceOp::Read, 4096, 512, 1}});
  EXPECT_EQ(stat(r.stats.ignored, "fio wait (not allowed in version 3)"), 1u);
}

TEST(FormatDetails, FioPowerfailIsARecordInBothVersionsAndRoundTrips) {
  // ssdsim's extension "FILE powerfail": a record with no data, timed like any.
  TempDir dir;
  auto v2 = read(dir, "v2.iolog", "fio version 2 iolog\n/a add\n/a write 0 4096\n/a wait 700 0\n/a powerfail\n", "fio");
  expect_records(v2.recs, {{0, TraceOp::Write, 0, 4096, 0}, {700000, TraceOp::PowerFail, 0, 0, 0}});
  auto v3 = read(dir, "v3.iolog", "fio version 3 iolog\n10 /a write 0 4096\n30 /a powerfail\n", "fio");
  expect_records(v3.recs, {{0, TraceOp::Write, 0, 4096, 0}, {20000, TraceOp::PowerFail, 0, 0, 0}});
  {
    auto w = traces::create_trace_writer(dir.file("out.iolog"), "fio");
    for (const auto& r : v3.recs) {
      traces::TraceRecord t;
      t.time_ns = r.time_ns, t.op = r.op, t.offset = r.offset, t.bytes = r.bytes, t.device = r.device;
      w->write(t);
    }
    w->close();
  }
  auto back = traces::open_trace(dir.file("out.iolog"), "fio", {});
  const auto recs = read_all(*back);
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[1].op, TraceOp::PowerFail);
  EXPECT_EQ(recs[1].time_ns, 20000u);
}

TEST(FormatDetails, BlkparseRwbsAndLineShapes) {
  TempDir dir;
  const std::string text =
      "  8,0    1        0     0.000000500     0  m   N cfq3981 alloced\n"
      "  8,0    0        1     0.000001000   100  Q  WS 8 + 8 [jbd2/sda1-8]\n"
      "  8,0    0        2     0.000002000   100  Q FWS [kworker/0:1H]\n"
      "  8,0    0        3     0.000003000   100  Q  FN [flush thread]\n"
      "  8,0    0        4     0.000004000   100  Q   N [no data]\n"
      "  8,0    0        5     0.000005000   100  Q FWFSM 64 + 16 [jbd2/sda1-8]\n"
      "  8,0    0        6     0.000006000   100  Q  DS 1024 + 2048 [fstrim]\n"
      "  8,0    0        7     0.000007000   100  Q  RA 32 + 8 [cat]\n"
      "  8,0    0        8     0.000008000   100  Q   R 36 (12 00 00 00 24 00 ..) [sg_inq]\n"
      "  8,0    0        9     0.000009000   100  D  WS 8 + 8 (     123) [kworker]\n"
      "259,3    1       10     0.000010000   200  Q   W 100 + 1 [nvme]\n"
      "  8,0    0       11     0.000011000   100  C  WS 8 + 8 [0]\n";
  auto q = read(dir, "q.txt", text, "blkparse");
  expect_records(q.recs, {{0, TraceOp::Write, 8 * 512, 8 * 512, 8u << 20},
                          {1000, TraceOp::Flush, 0, 0, 8u << 20},
                          {2000, TraceOp::Flush, 0, 0, 8u << 20},
                          {4000, TraceOp::Write, 64 * 512, 16 * 512, 8u << 20},  // preflush + data: a write
                          {5000, TraceOp::Discard, 1024 * 512, 2048 * 512, 8u << 20},
                          {6000, TraceOp::Read, 32 * 512, 8 * 512, 8u << 20},
                          {9000, TraceOp::Write, 100 * 512, 512, (259u << 20) | 3}});
  EXPECT_EQ(q.stats.ignored, (std::map<std::string, uint64_t>{{"blkparse message", 1},
                                                              {"zero-length request", 1},
                                                              {"blkparse PC request", 1},
                                                              {"blkparse action D", 1},
                                                              {"blkparse action C", 1}}));
  traces::ReaderOptions issue;
  issue.arrival = traces::ReaderOptions::Arrival::Issue;
  auto d = read(dir, "d.txt", text, "blkparse", issue);
  expect_records(d.recs, {{0, TraceOp::Write, 8 * 512, 8 * 512, 8u << 20}});
  EXPECT_EQ(stat(d.stats.ignored, "blkparse action Q"), 9u);
}

// A blk_io_trace record, little-endian, built here independently of the
// library's writer: magic, sequence, time, sector, bytes, action, pid,
// device, cpu, error, pdu_len, then the pdu.
std::string blk_record(uint64_t time, uint64_t sector, uint32_t bytes, uint32_t action, std::string pdu = {},
                       uint32_t magic = 0x65617407) {
  std::string r(48, '\0');
  auto put = [&](size_t at, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) r[at + i] = static_cast<char>(v >> (8 * i));
  };
  put(0, magic, 4);
  put(4, 1, 4);
  put(8, time, 8);
  put(16, sector, 8);
  put(24, bytes, 4);
  put(28, action, 4);
  put(32, 42, 4);
  put(36, (8u << 20) | 1, 4);
  put(40, 0, 4);
  put(44, 0, 2);
  put(46, pdu.size(), 2);
  return r + pdu;
}
constexpr uint32_t TC(uint32_t bits) { return bits << 16; }
constexpr uint32_t kRead = 1, kWrite = 2, kFlush = 4, kQueue = 16, kComplete = 128, kPc = 512, kNotify = 1024,
                   kDiscard = 8192, kFua = 32768;
constexpr uint32_t kQ = 1, kC = 8, kCgroup = 256;

TEST(FormatDetails, BlktraceActionsAndCategories) {
  TempDir dir;
  std::string bin = blk_record(5, 0, 0, TC(kNotify) | 0, std::string("fio\0\0\0\0\0\0\0\0\0\0\0\0\0", 16)) +
                    blk_record(1000, 8, 4096, kQ | TC(kQueue | kRead)) +
                    blk_record(1100, 16, 8192, kQ | kCgroup | TC(kQueue | kWrite | kFua), std::string(8, 'c')) +
                    blk_record(1200, 0, 0, kQ | TC(kQueue | kWrite | kFlush)) +
                    blk_record(1300, 64, 4096, kQ | TC(kQueue | kWrite | kFlush)) +
                    blk_record(1400, 128, 1 << 20, kQ | TC(kQueue | kWrite | kDiscard)) +
                    blk_record(1500, 0, 36, kQ | TC(kQueue | kRead | kPc), std::string(16, 'x')) +
                    blk_record(1600, 0, 0, kQ | TC(kQueue | kRead)) +
                    blk_record(1700, 8, 4096, kC | TC(kComplete | kRead)) +
                    blk_record(1800, 8, 4096, 200 | TC(kQueue)) +
                    blk_record(1900, 0, 0, TC(kNotify) | 2, "hello");
  auto r = read(dir, "t.bin", bin, "blktrace");
  const uint32_t dev = (8u << 20) | 1;
  expect_records(r.recs, {{0, TraceOp::Read, 8 * 512, 4096, dev},
                          {100, TraceOp::Write, 16 * 512, 8192, dev},  // cgroup flag, FUA: still a Q write
                          {200, TraceOp::Flush, 0, 0, dev},
                          {300, TraceOp::Write, 64 * 512, 4096, dev},  // preflush with data: a write
                          {400, TraceOp::Discard, 128 * 512, 1 << 20, dev}});
  EXPECT_EQ(r.stats.ignored, (std::map<std::string, uint64_t>{{"blktrace note process", 1},
                                                              {"blktrace note message", 1},
                                                              {"blktrace PC request", 1},
                                                              {"zero-length request", 1},
                                                              {"blktrace action C", 1},
                                                              {"blktrace action unknown", 1}}));
  EXPECT_EQ(r.recs[1].position, 64u + 48u);  // byte offsets: after the 64-byte note and one record
}

TEST(FormatDetails, SectorSizeOptionAndCsvVariants) {
  TempDir dir;
  traces::ReaderOptions big;
  big.sector_size = 4096;
  auto spc = read(dir, "a.spc", "3,10,8192,r,1.5,extra,fields\n3,11,4096,W,1.500001\n", "spc", big);
  expect_records(spc.recs, {{0, TraceOp::Read, 40960, 8192, 3}, {1000, TraceOp::Write, 45056, 4096, 3}});

  auto ds = read(dir, "a.ds", "1000.7 2 10 2 3\n1001 2 12 1 2\n1001 2 12 0 1\n", "disksim", big);
  // type: bit 0 set = read (3), clear = write (2); fraction of a ns dropped
  expect_records(ds.recs, {{0, TraceOp::Read, 40960, 8192, 2}, {1, TraceOp::Write, 49152, 4096, 2}});
  EXPECT_EQ(stat(ds.stats.ignored, "zero-length request"), 1u);

  auto msr = read(dir, "a.csv",
                  "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
                  "128166372003061629,hm,1,read,3224019456,16384,1331\n"
                  "128166372003061630,hm,2,WRITE,0,0,1\n"
                  "128166372003061640,hm,2,Write,512,4096,1\r\n",
                  "msr");
  expect_records(msr.recs, {{0, TraceOp::Read, 3224019456, 16384, 1}, {1100, TraceOp::Write, 512, 4096, 2}});
  EXPECT_EQ(stat(msr.stats.ignored, "msr header"), 1u);
  EXPECT_EQ(stat(msr.stats.ignored, "zero-length request"), 1u);

  // A UTF-8 byte-order mark before the header (CSV saved on Windows).
  const std::string bom_csv = "\xEF\xBB\xBFTimestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
                              "128166372003061629,hm,1,Read,0,512,1\n";
  write_file(dir.file("bom.csv"), bom_csv);
  EXPECT_EQ(traces::detect_format(dir.file("bom.csv")), "msr");
  EXPECT_EQ(read(dir, "bom.csv", bom_csv, "msr").recs.size(), 1u);

  auto ali = read(dir, "a.ali", "7,r,4096,512,10\n\n7,w,0,8192,12\n", "alibaba");
  expect_records(ali.recs, {{0, TraceOp::Read, 4096, 512, 7}, {2000, TraceOp::Write, 0, 8192, 7}});
  EXPECT_EQ(stat(ali.stats.ignored, "blank line"), 1u);
}

}  // namespace format_details_test
