// Malformed input for every reader: each defect gives a TraceError naming
// the file, the line or byte offset and the field; with skip_bad the record
// is skipped and counted by reason, and reading goes on.

#include <functional>

#include "tests/traces/trace_test_util.h"
#include "traces/blktrace_binary.h"

using namespace trace_test;
using traces::TraceOp;

namespace bad_input_test {

struct BadCase {
  const char* name;
  const char* format;
  std::string content;
  std::string message;  // expected what() after "FILE: "
  std::string reason;   // stats().skipped key with skip_bad
  size_t good;          // records read with skip_bad
};

std::string msr(const char* ts, const char* type, const char* off, const char* size) {
  return std::string(ts) + ",hm,0," + type + "," + off + "," + size + ",10\n";
}

const std::string kMsrA = msr("128166372000000000", "Read", "4096", "512");
const std::string kMsrB = msr("128166372000001000", "Write", "8192", "1024");
const std::string kSpcA = "0,8,512,R,0.000001\n", kSpcB = "0,16,1024,w,0.000009\n";
const std::string kAliA = "1,R,4096,512,1600000000000000\n", kAliB = "1,W,8192,1024,1600000000000010\n";
const std::string kDsA = "1000 0 8 1 1\n", kDsB = "2000 0 16 2 0\n";
const std::string kFio3 = "fio version 3 iolog\n5 /dev/sda add\n", kFio3A = "10 /dev/sda read 4096 512\n",
                  kFio3B = "20 /dev/sda write 8192 1024\n";
const std::string kFio2 = "fio version 2 iolog\n/dev/sda add\n", kFio2A = "/dev/sda read 4096 512\n",
                  kFio2B = "/dev/sda write 8192 1024\n";
const std::string kBpA = "  8,0    0        1     0.000001000   100  Q   R 8 + 1 [dd]\n",
                  kBpB = "  8,0    0        3     0.000009000   100  Q   W 16 + 2 [dd]\n";

std::vector<BadCase> cases() {
  return {
      {"msr_fields", "msr", kMsrA + "128166372000000500,hm,0,Read,4096\n" + kMsrB,
       "line 2: expected 7 comma-separated fields (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), found 5",
       "unparsable line", 2},
      {"msr_negative", "msr", kMsrA + msr("128166372000000500", "Read", "4096", "-8") + kMsrB,
       "line 2: field 'Size': negative value \"-8\"", "bad field 'Size'", 2},
      {"msr_nan", "msr", kMsrA + msr("128166372000000500", "Read", "0x10", "8") + kMsrB,
       "line 2: field 'Offset': not a number \"0x10\"", "bad field 'Offset'", 2},
      {"msr_type", "msr", kMsrA + msr("128166372000000500", "Erase", "0", "8") + kMsrB,
       "line 2: field 'Type': expected Read or Write, got \"Erase\"", "bad field 'Type'", 2},
      {"msr_backwards", "msr", kMsrB + kMsrA + kMsrB,
       "line 2: time going backwards: 128166372000000000 after 128166372000001000", "time going backwards", 2},
      {"msr_overflow", "msr", kMsrA + msr("128166372000000500", "Read", "99999999999999999999", "8") + kMsrB,
       "line 2: field 'Offset': out of range \"99999999999999999999\"", "bad field 'Offset'", 2},

      {"spc_negative", "spc", kSpcA + "0,8,-8,R,0.5\n" + kSpcB, "line 2: field 'size': negative value \"-8\"",
       "bad field 'size'", 2},
      {"spc_fields", "spc", kSpcA + "0,8,512\n" + kSpcB,
       "line 2: expected at least 5 comma-separated fields (ASU,LBA,size,opcode,timestamp), found 3",
       "unparsable line", 2},
      {"spc_opcode", "spc", kSpcA + "0,8,512,X,0.000002\n" + kSpcB, "line 2: field 'opcode': expected r or w, got \"X\"",
       "bad field 'opcode'", 2},
      {"spc_time", "spc", kSpcA + "0,8,512,R,1e-5\n" + kSpcB, "line 2: field 'timestamp': not a number \"1e-5\"",
       "bad field 'timestamp'", 2},
      {"spc_backwards", "spc", kSpcB + kSpcA + kSpcB, "line 2: time going backwards: 1000 after 9000",
       "time going backwards", 2},

      {"alibaba_negative", "alibaba", kAliA + "1,R,4096,-8,1600000000000005\n" + kAliB,
       "line 2: field 'length': negative value \"-8\"", "bad field 'length'", 2},
      {"alibaba_fields", "alibaba", kAliA + "1,R,4096,8\n" + kAliB,
       "line 2: expected 5 comma-separated fields (device_id,opcode,offset,length,timestamp), found 4",
       "unparsable line", 2},
      {"alibaba_backwards", "alibaba", kAliB + kAliA + kAliB,
       "line 2: time going backwards: 1600000000000000 after 1600000000000010", "time going backwards", 2},

      {"disksim_negative", "disksim", kDsA + "1500 0 8 -1 1\n" + kDsB,
       "line 2: field 'size_sectors': negative value \"-1\"", "bad field 'size_sectors'", 2},
      {"disksim_fields", "disksim", kDsA + "1500 0 8 1\n" + kDsB,
       "line 2: expected 5 space-separated fields (arrival_time device start_sector size_sectors type), found 4",
       "unparsable line", 2},
      {"disksim_nan", "disksim", kDsA + "1500 zero 8 1 1\n" + kDsB, "line 2: field 'device': not a number \"zero\"",
       "bad field 'device'", 2},
      {"disksim_backwards", "disksim", kDsB + kDsA + kDsB, "line 2: time going backwards: 1000 after 2000",
       "time going backwards", 2},

      {"fio3_negative", "fio", kFio3 + kFio3A + "15 /dev/sda read 4096 -8\n" + kFio3B,
       "line 4: field 'length': negative value \"-8\"", "bad field 'length'", 2},
      {"fio3_action", "fio", kFio3 + kFio3A + "15 /dev/sda frobnicate 4096 8\n" + kFio3B,
       "line 4: field 'action': unknown I/O action \"frobnicate\"", "bad field 'action'", 2},
      {"fio3_io_action_alone", "fio", kFio3 + kFio3A + "15 /dev/sda sync\n" + kFio3B,
       "line 4: field 'action': I/O action \"sync\" needs an offset and a length (e.g. 'sync 0 0')",
       "bad field 'action'", 2},
      {"fio3_fields", "fio", kFio3 + kFio3A + "15 /dev/sda read 4096\n" + kFio3B,
       "line 4: expected 'timestamp filename action [offset length]', found 4 fields", "unparsable line", 2},
      {"fio3_backwards", "fio", kFio3 + kFio3B + kFio3A + kFio3B, "line 4: time going backwards: 10 after 20",
       "time going backwards", 2},
      {"fio2_negative", "fio", kFio2 + kFio2A + "/dev/sda write -4096 8\n" + kFio2B,
       "line 4: field 'offset': negative value \"-4096\"", "bad field 'offset'", 2},
      {"fio2_fields", "fio", kFio2 + kFio2A + "/dev/sda read 4096\n" + kFio2B,
       "line 4: expected 'filename action [offset length]', found 3 fields", "unparsable line", 2},

      {"blkparse_negative", "blkparse", kBpA + "  8,0    0        2     0.000002000   100  Q   R 8 + -8 [dd]\n" + kBpB,
       "line 2: field 'sectors': negative value \"-8\"", "bad field 'sectors'", 2},
      {"blkparse_sector", "blkparse", kBpA + "  8,0    0        2     0.000002000   100  Q   R x8 + 8 [dd]\n" + kBpB,
       "line 2: field 'sector': not a number \"x8\"", "bad field 'sector'", 2},
      {"blkparse_action", "blkparse", kBpA + "  8,0    0        2     0.000002000   100  ZZ   R 8 + 8 [dd]\n" + kBpB,
       "line 2: field 'action': unknown action \"ZZ\"", "bad field 'action'", 2},
      {"blkparse_rwbs", "blkparse", kBpA + "  8,0    0        2     0.000002000   100  Q   Q 8 + 8 [dd]\n" + kBpB,
       "line 2: field 'rwbs': expected [F]D|W|R|N[F][A][S][M], got \"Q\"", "bad field 'rwbs'", 2},
      {"blkparse_garbage", "blkparse", kBpA + "this is not blkparse\n" + kBpB,
       "line 2: not a blkparse event line: \"this is not blkparse\"", "unparsable line", 2},
      {"blkparse_backwards", "blkparse", kBpB + kBpA + kBpB, "line 2: time going backwards: 1000 after 9000",
       "time going backwards", 2},
  };
}

TEST(BadInput, TextReadersReportFileLineAndField) {
  TempDir dir;
  for (const BadCase& c : cases()) {
    SCOPED_TRACE(c.name);
    const std::string path = dir.file(std::string(c.name) + ".trace");
    write_file(path, c.content);
    try {
      read_all(path, c.format);
      ADD_FAILURE() << "no TraceError";
    } catch (const traces::TraceError& e) {
      EXPECT_EQ(std::string(e.what()), path + ": " + c.message);
      EXPECT_EQ(e.file(), path);
    }
    traces::ReaderOptions skip;
    skip.skip_bad = true;
    auto r = traces::open_trace(path, c.format, skip);
    auto recs = read_all(*r);
    EXPECT_EQ(recs.size(), c.good);
    EXPECT_EQ(r->stats().records, c.good);
    EXPECT_EQ(r->stats().skipped, (std::map<std::string, uint64_t>{{c.reason, 1}}));
  }
}

TEST(BadInput, OverlongAndBinaryLines) {
  TempDir dir;
  const std::string path = dir.file("long.spc");
  write_file(path, kSpcA + std::string(100000, '7') + "\n" + std::string("\0\xff,\x01", 4) + "\n" + kSpcB);
  try {
    read_all(path, "spc");
    ADD_FAILURE();
  } catch (const traces::TraceError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": line 2: line longer than 65536 bytes");
  }
  traces::ReaderOptions skip;
  skip.skip_bad = true;
  auto r = traces::open_trace(path, "spc", skip);
  EXPECT_EQ(read_all(*r).size(), 2u);
  EXPECT_EQ(stat(r->stats().skipped, "line too long"), 1u);
  EXPECT_EQ(stat(r->stats().skipped, "unparsable line"), 1u);
}

TEST(BadInput, FioHeaderIsRequired) {
  TempDir dir;
  traces::ReaderOptions skip;
  skip.skip_bad = true;
  write_file(dir.file("a"), "fio version 1 iolog\n/dev/sda read 0 8\n");
  write_file(dir.file("b"), "/dev/sda read 0 8\n");
  for (const char* f : {"a", "b"}) {
    for (const auto& opts : {traces::ReaderOptions{}, skip}) {
      try {
        read_all(dir.file(f), "fio", opts);
        ADD_FAILURE() << f;
      } catch (const traces::TraceError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(dir.file(f) + ": line 1: ", 0), 0u) << e.what();
      }
    }
  }
}

// blktrace binary: a small valid trace written by BlktraceWriter, then
// corrupted. Layout: a 64-byte process note, then per record a Q and a C
// event of 48 bytes each.
constexpr uint64_t kNote = 64, kEvent = 48;

std::string valid_blktrace(const std::string& prefix, bool big_endian = false) {
  traces::detail::BlktraceWriter w(prefix, big_endian);
  for (int i = 0; i < 3; ++i) {
    traces::TraceRecord r;
    r.time_ns = 1000 * i;
    r.op = i == 1 ? TraceOp::Write : TraceOp::Read;
    r.offset = 4096 * i;
    r.bytes = 4096;
    r.device = (8u << 20) | 16;
    w.write(r);
  }
  w.close();
  return prefix + ".blktrace.0";
}

void put32le(std::string& s, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) s[at + i] = static_cast<char>(v >> (8 * i));
}

struct BinCase {
  const char* name;
  std::function<void(std::string&)> corrupt;
  std::string message;
  std::map<std::string, uint64_t> skipped;
  uint64_t resync_bytes;  // from the bad record's start to the next valid header (or the end)
  size_t good;
};

TEST(BadInput, BlktraceBinary) {
  const uint64_t q2 = kNote + 2 * kEvent;  // offset of the second record's Q
  const std::vector<BinCase> bin_cases = {
      {"truncated header", [](std::string& s) { s.resize(s.size() - 10); },
       "byte offset 304: truncated record: 38 of 48 header bytes",
       {{"truncated record", 1}}, 38, 3},
      {"truncated pdu", [](std::string& s) { s.resize(kNote - 4); },
       "byte offset 0: truncated record: pdu of 16 bytes runs past the end of the file",
       {{"truncated record", 1}}, kNote - 4, 0},
      {"wrong magic", [&](std::string& s) { put32le(s, q2, 0x12345678); }, "byte offset 160: bad magic 0x12345678",
       // Resynchronised on the next header (the C event one record on): the Qs before and after survive.
       {{"bad magic", 1}}, kEvent, 2},
      {"version 8", [&](std::string& s) { put32le(s, q2, 0x65617408); },
       "byte offset 160: unsupported blktrace version 8 (magic 0x65617408; reads version 7)",
       {{"unsupported version", 1}}, kEvent, 2},
      {"time backwards", [&](std::string& s) { put32le(s, q2 + 8, 1000); put32le(s, q2 + 12, 0); },
       "byte offset 160: time going backwards: 1000 ns after 1000000000",
       {{"time going backwards", 1}}, 0, 2},
      {"huge pdu", [&](std::string& s) { s[q2 + 46] = '\xff'; s[q2 + 47] = '\xff'; },
       "byte offset 160: truncated record: pdu of 65535 bytes runs past the end of the file",
       // A pdu longer than the read buffer is skipped by reading through it:
       // past the end of the file there is nothing left to resynchronise on.
       {{"truncated record", 1}}, 352 - 160, 1},
      {"pdu past the end, inside the buffer", [&](std::string& s) { s[q2 + 46] = '\x00'; s[q2 + 47] = '\x01'; },
       "byte offset 160: truncated record: pdu of 256 bytes runs past the end of the file",
       {{"truncated record", 1}}, kEvent, 2},
  };
  TempDir dir;
  for (const BinCase& c : bin_cases) {
    SCOPED_TRACE(c.name);
    std::string file = valid_blktrace(dir.file("t"));
    std::string bytes = read_file(file);
    ASSERT_EQ(bytes.size(), kNote + 6 * kEvent);
    c.corrupt(bytes);
    write_file(file, bytes);
    try {
      read_all(file, "blktrace");
      ADD_FAILURE() << "no TraceError";
    } catch (const traces::TraceError& e) {
      EXPECT_EQ(std::string(e.what()), file + ": " + c.message);
    }
    traces::ReaderOptions skip;
    skip.skip_bad = true;
    auto r = traces::open_trace(file, "blktrace", skip);
    EXPECT_EQ(read_all(*r).size(), c.good);
    EXPECT_EQ(r->stats().skipped, c.skipped);
    EXPECT_EQ(r->stats().resync_bytes, c.resync_bytes);
  }
}

TEST(BadInput, BlktraceErrorNamesTheBadPerCpuFile) {
  TempDir dir;
  std::string good = valid_blktrace(dir.file("t"));
  fs::copy_file(good, dir.file("t.blktrace.1"));
  std::string bytes = read_file(dir.file("t.blktrace.1"));
  put32le(bytes, kNote, 0xdeadbeef);
  write_file(dir.file("t.blktrace.1"), bytes);
  try {
    read_all(dir.file("t"));
    ADD_FAILURE();
  } catch (const traces::TraceError& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("t.blktrace.1") + ": byte offset 64: bad magic 0xdeadbeef");
  }
  traces::ReaderOptions skip;
  skip.skip_bad = true;
  // The good file's 3 records, and the bad file's 2 after it resynchronises
  // past its broken first event.
  EXPECT_EQ(read_all(dir.file("t"), "", skip).size(), 5u);
}

TEST(BadInput, BlktraceBigEndianWriterReadsBack) {
  TempDir dir;
  auto le = read_all(valid_blktrace(dir.file("le")));
  auto be = read_all(valid_blktrace(dir.file("be"), true));
  ASSERT_EQ(le.size(), 3u);
  ASSERT_EQ(be.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(le[i].time_ns, be[i].time_ns);
    EXPECT_EQ(le[i].offset, be[i].offset);
    EXPECT_EQ(le[i].device, be[i].device);
  }
  EXPECT_NE(read_file(dir.file("le.blktrace.0")), read_file(dir.file("be.blktrace.0")));
}

TEST(BadInput, OptionsAndMissingFiles) {
  traces::ReaderOptions zero;
  zero.sector_size = 0;
  EXPECT_THROW(traces::open_trace(sample("generated/loop0_q.spc"), "spc", zero), traces::TraceError);
  try {
    traces::open_trace("/nonexistent/x.csv", "msr", {});
    ADD_FAILURE();
  } catch (const traces::TraceError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/x.csv: cannot open: ", 0), 0u) << e.what();
  }
}

}  // namespace bad_input_test
