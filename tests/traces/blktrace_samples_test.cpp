// The blktrace and blkparse readers on the captured samples. Expected values
// come from traces/samples/SOURCES.md, apps/SOURCES.md, the summary.json
// files (written by an independent Python reader) and from tallies of the
// blkparse text done here with plain string splitting.

#include <algorithm>

#include "tests/traces/trace_test_util.h"

using namespace trace_test;
using traces::TraceOp;

namespace blktrace_samples_test {

// What `blkparse -i NAME` printed, tallied line by line: the events with an
// arrival action (Q or D) by kind and size.
struct TextTally {
  uint64_t events = 0;  // all event lines ("M,m" in the first column)
  uint64_t n[4] = {}, bytes[4] = {};
  std::vector<std::vector<std::string>> arrivals;  // token lists of the arrival lines, in order
  std::map<std::string, uint64_t> by_action;
};

int kind_of(const std::string& rwbs, bool has_data) {
  std::string k = rwbs[0] == 'F' && rwbs.size() > 1 ? rwbs.substr(1) : rwbs;
  if (!has_data) return rwbs[0] == 'F' ? int(TraceOp::Flush) : -1;
  if (k[0] == 'D') return int(TraceOp::Discard);
  if (k[0] == 'W') return int(TraceOp::Write);
  return int(TraceOp::Read);
}

TextTally tally_blkparse(const std::string& path, const std::string& arrival = "Q") {
  TextTally t;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    auto tok = tokens(line);
    if (tok.size() < 7 || tok[0].find(',') == std::string::npos || !isdigit(tok[0][0])) continue;
    ++t.events;
    ++t.by_action[tok[5]];
    if (tok[5] != arrival) continue;
    bool data = tok.size() >= 10 && tok[8] == "+";
    int k = kind_of(tok[6], data);
    if (k < 0) continue;
    ++t.n[k];
    if (data) t.bytes[k] += std::stoull(tok[9]) * 512;
    t.arrivals.push_back(tok);
  }
  return t;
}

// Seconds.nanoseconds of a blkparse line, in ns.
uint64_t line_ns(const std::vector<std::string>& tok) {
  const std::string& ts = tok[3];
  size_t dot = ts.find('.');
  return std::stoull(ts.substr(0, dot)) * 1000000000ull + std::stoull(ts.substr(dot + 1));
}

void expect_record_is_line(const Rec& r, const std::vector<std::string>& tok, uint64_t t0) {
  EXPECT_EQ(r.time_ns, line_ns(tok) - t0);
  bool data = tok.size() >= 10 && tok[8] == "+";
  EXPECT_EQ(int(r.op), kind_of(tok[6], data));
  EXPECT_EQ(r.offset, data ? std::stoull(tok[7]) * 512 : 0);
  EXPECT_EQ(r.bytes, data ? std::stoull(tok[9]) * 512 : 0);
  EXPECT_EQ(r.device, 7u << 20);  // "7,0": /dev/loop0
}

uint64_t ignored_actions(const traces::ReaderStats& s, const std::string& prefix) {
  uint64_t n = 0;
  for (const auto& [k, v] : s.ignored)
    if (k.rfind(prefix, 0) == 0) n += v;
  return n;
}

void expect_same_requests(const std::vector<Rec>& a, const std::vector<Rec>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE("record " + std::to_string(i));
    EXPECT_EQ(a[i].time_ns, b[i].time_ns);
    EXPECT_EQ(a[i].op, b[i].op);
    EXPECT_EQ(a[i].offset, b[i].offset);
    EXPECT_EQ(a[i].bytes, b[i].bytes);
    EXPECT_EQ(a[i].device, b[i].device);
  }
}

TEST(BlktraceSamples, Loop0MatchesBlkparseTally) {
  TextTally t = tally_blkparse(sample("generated/loop0.blkparse.txt"));
  EXPECT_EQ(t.events, 3456u);  // SOURCES.md
  auto r = traces::open_trace(sample("generated/loop0"), "", {});
  auto recs = read_all(*r);
  ASSERT_EQ(recs.size(), t.arrivals.size());
  // SOURCES.md: 551 R/W Q events with data, the same as the derived CSVs.
  EXPECT_EQ(count(recs, TraceOp::Read) + count(recs, TraceOp::Write), 551u);
  for (TraceOp op : {TraceOp::Read, TraceOp::Write, TraceOp::Discard, TraceOp::Flush}) {
    EXPECT_EQ(count(recs, op), t.n[int(op)]) << traces::to_string(op);
    EXPECT_EQ(bytes(recs, op), t.bytes[int(op)]) << traces::to_string(op);
  }
  const uint64_t t0 = line_ns(t.arrivals.front());
  expect_record_is_line(recs.front(), t.arrivals.front(), t0);
  expect_record_is_line(recs.back(), t.arrivals.back(), t0);
  EXPECT_EQ(recs.front().time_ns, 0u);
  EXPECT_EQ(recs.back().op, TraceOp::Discard);  // step 5: blkdiscard of 4 MiB
  EXPECT_EQ(recs.back().bytes, 4u << 20);

  // Every event is either a record or counted by action.
  const auto& s = r->stats();
  EXPECT_EQ(s.records, recs.size());
  EXPECT_EQ(s.records + ignored_actions(s, "blktrace action "), t.events);
  for (const auto& [action, n] : t.by_action)
    if (action != "Q") {
      EXPECT_EQ(stat(s.ignored, "blktrace action " + action), n) << action;
    }
  EXPECT_GT(stat(s.ignored, "blktrace note process"), 0u);
  EXPECT_TRUE(s.skipped.empty());
}

TEST(BlktraceSamples, BigEndianFilesGiveIdenticalRecords) {
  auto le = read_all(sample("generated/loop0"));
  auto be = read_all(sample("generated/loop0be"));
  expect_same_requests(le, be);
  for (size_t i = 0; i < le.size(); ++i) EXPECT_EQ(le[i].position, be[i].position);
}

TEST(BlktraceSamples, MergedFileGivesSameQueueRecords) {
  auto per_cpu = traces::open_trace(sample("generated/loop0"), "blktrace", {});
  auto merged = traces::open_trace(sample("generated/loop0.merged.bin"), "blktrace", {});
  auto a = read_all(*per_cpu), b = read_all(*merged);
  expect_same_requests(a, b);
  EXPECT_EQ(per_cpu->stats().ignored, merged->stats().ignored);
}

TEST(BlktraceSamples, IssueArrivalUsesDispatchEvents) {
  TextTally t = tally_blkparse(sample("generated/loop0.blkparse.txt"), "D");
  traces::ReaderOptions opts;
  opts.arrival = traces::ReaderOptions::Arrival::Issue;
  auto r = traces::open_trace(sample("generated/loop0"), "", opts);
  auto recs = read_all(*r);
  ASSERT_EQ(recs.size(), t.arrivals.size());
  const uint64_t t0 = line_ns(t.arrivals.front());
  for (size_t i = 0; i < recs.size(); ++i) {
    SCOPED_TRACE(i);
    expect_record_is_line(recs[i], t.arrivals[i], t0);
  }
  EXPECT_EQ(stat(r->stats().ignored, "blktrace action Q"), 571u);
}

TEST(BlktraceSamples, SinglePerCpuFileAndDirectory) {
  // One per-CPU file: only the events traced on that CPU (blkparse column 2).
  TextTally t = tally_blkparse(sample("generated/loop0.blkparse.txt"));
  uint64_t cpu1 = std::count_if(t.arrivals.begin(), t.arrivals.end(), [](auto& tok) { return tok[1] == "1"; });
  auto one = read_all(sample("generated/loop0.blktrace.1"));
  EXPECT_EQ(one.size(), cpu1);
  EXPECT_GT(cpu1, 0u);

  // A directory with the per-CPU files of one trace reads like the prefix.
  TempDir dir;
  for (const char* f : {"loop0.blktrace.0", "loop0.blktrace.1"})
    fs::copy_file(sample(std::string("generated/") + f), dir.file(f));
  write_file(dir.file("notes.txt"), "not a trace file\n");
  expect_same_requests(read_all(dir.path()), read_all(sample("generated/loop0")));
  EXPECT_EQ(traces::detect_format(dir.path()), "blktrace");

  // Two traces in one directory: ambiguous.
  fs::copy_file(sample("generated/loop0be.blktrace.0"), dir.file("loop0be.blktrace.0"));
  try {
    read_all(dir.path());
    FAIL() << "expected TraceError";
  } catch (const traces::TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("loop0, loop0be"), std::string::npos) << e.what();
  }
  // But each NAME prefix in it still works.
  EXPECT_EQ(read_all(dir.file("loop0be")).size(), read_all(dir.file("loop0.blktrace.0")).size());

  TempDir empty;
  EXPECT_THROW(read_all(empty.path()), traces::TraceError);
  EXPECT_THROW(read_all(empty.file("nothing")), traces::TraceError);
}

// apps/*.summary.json against the reader, plus the sizes and extent checks.
void check_app_trace(const std::string& name) {
  const std::string json = read_file(sample("apps/" + name + ".summary.json"));
  auto r = traces::open_trace(sample("apps/" + name), "", {});
  auto recs = read_all(*r);
  const auto& s = r->stats();

  EXPECT_EQ(recs.size(), json_number(json, {"Q", "total"}));
  EXPECT_EQ(count(recs, TraceOp::Read), json_number(json, {"Q", "read"}));
  EXPECT_EQ(count(recs, TraceOp::Write), json_number(json, {"Q", "write"}));
  EXPECT_EQ(count(recs, TraceOp::Discard), json_number(json, {"Q", "discard"}));
  EXPECT_EQ(count(recs, TraceOp::Flush), json_number(json, {"Q", "flush_no_data"}));
  EXPECT_EQ(bytes(recs, TraceOp::Read), json_number(json, {"bytes_read"}));
  EXPECT_EQ(bytes(recs, TraceOp::Write), json_number(json, {"bytes_written"}));
  EXPECT_EQ(bytes(recs, TraceOp::Discard), json_number(json, {"bytes_discarded"}));
  // top_sizes_bytes counts the read and write Qs by size (discards apart).
  auto rw = only(recs, {TraceOp::Read, TraceOp::Write});
  EXPECT_EQ(std::count_if(rw.begin(), rw.end(), [](const Rec& x) { return x.bytes == 4096; }),
            int64_t(json_number(json, {"top_sizes_bytes", "4096"})));
  EXPECT_EQ(std::count_if(rw.begin(), rw.end(), [](const Rec& x) { return x.bytes == 8192; }),
            int64_t(json_number(json, {"top_sizes_bytes", "8192"})));

  // Events: every one a record or an ignored action; notes counted apart.
  EXPECT_EQ(s.records + ignored_actions(s, "blktrace action "), json_number(json, {"total_events"}));
  for (const char* a : {"C", "D", "G", "I", "M", "P", "U", "UT", "X"})
    EXPECT_EQ(stat(s.ignored, std::string("blktrace action ") + a), json_number(json, {"events_per_action", a})) << a;
  EXPECT_EQ(stat(s.ignored, "blktrace note process"), json_number(json, {"process_notes"}));
  EXPECT_TRUE(s.skipped.empty());

  // Extent of the data-carrying Qs and the time span.
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const Rec& x : recs)
    if (x.bytes) lo = std::min(lo, x.offset), hi = std::max(hi, x.offset + x.bytes);
  EXPECT_EQ(lo / 512, json_number(json, {"min_sector"}));
  EXPECT_EQ(hi / 512, json_number(json, {"max_sector_end"}));
  EXPECT_EQ(recs.front().time_ns, 0u);
  EXPECT_LE(recs.back().time_ns, json_number(json, {"last_timestamp_ns"}) - json_number(json, {"first_timestamp_ns"}));
  EXPECT_TRUE(std::is_sorted(recs.begin(), recs.end(), [](const Rec& a, const Rec& b) { return a.time_ns < b.time_ns; }));
  for (const Rec& x : recs) EXPECT_EQ(x.device, 7u << 20) << "loop0 is dev_t 7,0";
}

TEST(BlktraceSamples, BuildMatchesSummaryJson) { check_app_trace("build"); }
TEST(BlktraceSamples, FstrimDesktopMatchesSummaryJson) { check_app_trace("fstrim-desktop"); }

TEST(BlktraceSamples, BuildBinaryAndBlkparseTextAgree) {
  auto bin = read_all(sample("apps/build"));
  auto text = read_all(sample("apps/build.blkparse.txt"));
  expect_same_requests(bin, text);
  TextTally t = tally_blkparse(sample("apps/build.blkparse.txt"));
  EXPECT_EQ(t.events, 40968u);  // apps/SOURCES.md
}

TEST(BlkparseSamples, Loop0TextMatchesTally) {
  TextTally t = tally_blkparse(sample("generated/loop0.blkparse.txt"));
  auto r = traces::open_trace(sample("generated/loop0.blkparse.txt"), "blkparse", {});
  auto recs = read_all(*r);
  ASSERT_EQ(recs.size(), t.arrivals.size());
  const uint64_t t0 = line_ns(t.arrivals.front());
  for (size_t i = 0; i < recs.size(); ++i) {
    SCOPED_TRACE(i);
    expect_record_is_line(recs[i], t.arrivals[i], t0);
    EXPECT_EQ(recs[i].source, sample("generated/loop0.blkparse.txt"));
  }
  EXPECT_EQ(recs.front().position, 1u);  // line numbers

  // Every line is accounted for: a record, an ignored event, or summary.
  const auto& s = r->stats();
  uint64_t lines = 0;
  std::ifstream in(sample("generated/loop0.blkparse.txt"));
  for (std::string l; std::getline(in, l);) ++lines;
  uint64_t ignored = 0;
  for (const auto& [k, v] : s.ignored) ignored += v;
  EXPECT_EQ(s.records + ignored, lines);
  EXPECT_EQ(s.records + ignored_actions(s, "blkparse action "), t.events);
  EXPECT_GT(stat(s.ignored, "blkparse summary"), 0u);
  EXPECT_TRUE(s.skipped.empty());
}

TEST(BlkparseSamples, TextAndBinaryAgreeOnLoop0) {
  expect_same_requests(read_all(sample("generated/loop0.blkparse.txt")), read_all(sample("generated/loop0")));
  traces::ReaderOptions issue;
  issue.arrival = traces::ReaderOptions::Arrival::Issue;
  expect_same_requests(read_all(sample("generated/loop0.blkparse.txt"), "", issue),
                       read_all(sample("generated/loop0"), "", issue));
}

}  // namespace blktrace_samples_test
