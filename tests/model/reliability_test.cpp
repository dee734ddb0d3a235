// Regression tests for the reliability report of 2026-11-22 (defects D1-D17
// and the FLUSH / time-series findings): each runs the report's minimal
// command against the binary and asserts the behaviour the report expects.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <unistd.h>

#include "tests/model/cli_util.h"

namespace reliability_test {

using ssdtest::read_csv;
using ssdtest::read_json;
using ssdtest::Result;
using ssdtest::run;
using ssdtest::tmp;

const std::string kSamples = std::string(SSDSIM_SOURCE_DIR) + "/traces/samples/";
// A small drive; kSmall adds a bounded synthetic workload (a trace replay
// takes kDrive: workload options do not apply to it).
const std::string kDrive =
    "--nand.channels=4 --nand.dies_per_channel=2 --nand.blocks_per_plane=64 --nand.pages_per_block=64 ";
const std::string kSmall = kDrive + "--workload.number_ios=2000 ";

// Exit 2, one line, naming `message` (the option or the file and line).
void expect_bad(const std::string& args, const std::string& message) {
  const Result r = run(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
  EXPECT_EQ(ssdtest::program_lines(r.out), 1) << "one line: " << r.out;
}

nlohmann::json run_ok(const std::string& args, const std::string& name) {
  const std::string rep = tmp(name + ".json");
  const Result r = run(args + " --report " + rep);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  return r.code == 0 ? read_json(rep) : nlohmann::json();
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// ---- D1/D2: the page FTL never runs out of blocks on an accepted configuration

TEST(Reliability, D1_GcThresholdOneAtMinimumSpareCompletes) {
  const auto j = run_ok("--nand.blocks_per_plane=32 --ftl.gc_threshold=1 --workload.rw=randwrite", "d1a");
  ASSERT_FALSE(j.is_null());
  EXPECT_EQ(j["write"]["total_ios"].get<uint64_t>(), 200000u);
  EXPECT_GT(j["device"]["gc_runs"].get<uint64_t>(), 0u);  // GC did run at the edge
}

TEST(Reliability, D1_UsedDriveAtMinimumSpareCompletes) {
  // (20k IOs: the old FTL already failed during this preconditioning.)
  EXPECT_FALSE(run_ok("--nand.blocks_per_plane=32 --ftl.gc_threshold=1 --workload.rw=randwrite --precondition=used "
                      "--workload.number_ios=20000",
                      "d1b").is_null());
  EXPECT_FALSE(run_ok("--nand.blocks_per_plane=256 --ftl.op=0.008867 --ftl.gc_threshold=2 --precondition=used "
                      "--workload.rw=randwrite --workload.number_ios=20000",
                      "d1c").is_null());
  EXPECT_FALSE(run_ok("--nand.blocks_per_plane=256 --ftl.op=0.0111 --ftl.gc_threshold=3 --precondition=used "
                      "--workload.rw=randwrite --workload.number_ios=20000",
                      "d1d").is_null());
}

// ---- D3: trace offsets near 2^64

TEST(Reliability, D3_HugeTraceOffsetWrapsOrIsRefused) {
  const std::string log = tmp("ovf.log"), csv = tmp("ovf.csv"), log1 = tmp("ovf1.log");
  write_text(log, "fio version 2 iolog\n/dev/x write 18446744073709547520 4096\n");
  write_text(csv, "0,W,18446744073709547520,4096,1600000000000000\n");
  write_text(log1, "fio version 2 iolog\n/dev/x write 18446744073709551615 65536\n");
  for (const std::string& f : {log, csv}) {
    const auto j = run_ok(kDrive + "--trace " + f, "d3");
    ASSERT_FALSE(j.is_null());
    EXPECT_EQ(j["trace"]["remapped"].get<uint64_t>(), 1u);  // wrapped into the drive
    EXPECT_EQ(j["device"]["host_pages_written"].get<uint64_t>(), 1u);  // and really written
  }
  expect_bad(kDrive + "--trace " + log1 + " --trace.beyond=error", log1 + ": line 2: address ");
}

// ---- D4, D10, D16: spans and geometry checked without wrapping

TEST(Reliability, D4_OffsetPlusSizeOverflowIsRefused) {
  expect_bad("--workload.offset=9223372036854775808B --workload.size=9223372036854775808B --workload.number_ios=10",
             "option '--workload.offset': starts at byte 9223372036854775808, beyond");
  expect_bad(kSmall + "--workload.offset=4k --workload.size=18446744073709547520B",
             "option '--workload.size': 18446744073709547520B from workload.offset 4k ends beyond");
}

TEST(Reliability, D10_SpanSmallerThanBlockSizeIsBadInput) {
  expect_bad("--workload.size=4k --workload.bs=8k", "option '--workload.size': span of 4k is smaller than workload.bs");
}

TEST(Reliability, D16_GeometryPastTwoToThe32PagesIsRefused) {
  for (const char* blocks : {"65536", "65537"})
    expect_bad(std::string("--nand.channels=64 --nand.dies_per_channel=64 --nand.planes_per_die=16 "
                           "--nand.pages_per_block=1 --nand.blocks_per_plane=") + blocks,
               "option '--nand.blocks_per_plane': geometry gives");
}

// ---- D5, D8: times SystemC cannot represent

TEST(Reliability, D5_TimeSeriesIntervalBelowOneNanosecond) {
  for (const char* t : {"1ps", "999ps"})
    expect_bad(kSmall + "--timeseries " + tmp("ts.csv") + " --timeseries.interval=" + t,
               "option '--timeseries.interval': must be at least 1ns");
}

TEST(Reliability, D8_UnrepresentableTimesAreRefused) {
  expect_bad(kSmall + "--cpu.clock=1e-300Hz", "option '--cpu.clock': one cycle is longer than");
  expect_bad(kSmall + "--nand.t_read=1e30s", "option '--nand.t_read': longer than the 10 s");
  expect_bad(kSmall + "--nand.t_prog=1e7s", "option '--nand.t_prog': longer than");
  expect_bad(kSmall + "--nand.t_read=0.5ps", "option '--nand.t_read': below SystemC's 1 ps");
  expect_bad(kSmall + "--nand.channel_rate=1e-300B/s", "option '--nand.channel_rate': one page transfer is longer");
  expect_bad(kSmall + "--dram.bandwidth=1e-12B/s", "option '--dram.bandwidth': one page transfer is longer");
  expect_bad(kSmall + "--dram.latency=1e19s", "option '--dram.latency': longer than");
  expect_bad(kSmall + "--sata.cmd_overhead=1e16s", "option '--sata.cmd_overhead': longer than");
  expect_bad(kSmall + "--cpu.clock=1kHz --cpu.cycles.decode=1000000", "option '--cpu.cycles.decode': at cpu.clock 1kHz");
  expect_bad("--workload.number_ios=0 --workload.runtime=1e30s", "option '--workload.runtime': longer than the 1e+06 s");
}

// ---- D6: check.content checks every read (fault injection: model_tests)

TEST(Reliability, D6_ContentCheckCountsEveryReadPage) {
  // 6 KiB reads at 2 KiB alignment touch 2 or 3 pages each: count them here.
  const auto j = run_ok(kSmall + "--workload.rw=randrw --workload.bs=6k --dram.write_cache=1m --precondition=used "
                        "--check.content=true --latency-log " + tmp("d6.csv"),
                        "d6");
  ASSERT_FALSE(j.is_null());
  uint64_t pages = 0;
  const auto rows = read_csv(tmp("d6.csv"));
  for (size_t i = 1; i < rows.size(); ++i)
    if (rows[i][1] == "read") {
      const uint64_t off = std::stoull(rows[i][2]) * 512, bytes = std::stoull(rows[i][3]);
      pages += (off + bytes - 1) / 4096 - off / 4096 + 1;
    }
  EXPECT_GT(pages, 1000u);
  EXPECT_EQ(j["device"]["content_check"]["pages_checked"].get<uint64_t>(), pages);
}

// ---- D7: utilisation stays in [0, 1]; destaging after the last completion is drain

TEST(Reliability, D7_UtilisationWithWriteCacheAtMostOne) {
  // (The report used 64m, which no longer fits beside the 30 MiB map: D17.)
  const auto j = run_ok("--dram.write_cache=16m --workload.rw=write --workload.number_ios=1000", "d7");
  ASSERT_FALSE(j.is_null());
  const auto& d = j["device"];
  auto in_range = [](double u) { return u >= 0.0 && u <= 1.0; };
  for (const auto& x : d["dies"]) EXPECT_TRUE(in_range(x["utilisation"].get<double>())) << x;
  for (const auto& x : d["channels"]) EXPECT_TRUE(in_range(x["utilisation"].get<double>())) << x;
  for (const char* k : {"sata", "cpu", "dram"}) EXPECT_TRUE(in_range(d[k]["utilisation"].get<double>())) << k;
  // 1000 x 4 KiB acknowledged from DRAM long before the programs finish.
  EXPECT_GT(d["drain_ns"].get<uint64_t>(), d["simulated_time_ns"].get<uint64_t>());
}

// ---- D9, D11, D12, D13: option checks

TEST(Reliability, D9_OnlyTheIodepthOfTheModeInUseIsChecked) {
  EXPECT_FALSE(run_ok("--sata.ncq_depth=8 --workload.iodepth=4 --workload.number_ios=10", "d9a").is_null());
  EXPECT_FALSE(run_ok(kDrive + "--sata.ncq_depth=8 --trace.iodepth=8 --trace " + kSamples + "generated/fio_mix.iolog",
                      "d9b").is_null());
}

// A fio job file's iodepth above the drive's NCQ depth is not refused (as
// docs/fio.md once said): the rest wait in the host queue. With one tag and
// 4 outstanding, each read waits for the 3 ahead of it (Little's law on a
// closed loop of 4 through one server): submission latency ~ 3 x the drive's.
TEST(Reliability, FioJobDeeperThanNcqWaitsInTheHostQueue) {
  const std::string job = tmp("deep.fio");
  write_text(job, "[a]\nrw=randread\niodepth=4\nnumber_ios=400\n");
  for (const int ncq : {1, 32}) {
    const auto j = run_ok(kDrive + "--sata.ncq_depth=" + std::to_string(ncq) + " --job " + job, "deep");
    ASSERT_FALSE(j.is_null());
    const double slat = j["read"]["slat_ns"]["mean"].get<double>(), clat = j["read"]["clat_ns"]["mean"].get<double>();
    EXPECT_EQ(j["read"]["total_ios"].get<uint64_t>(), 400u);
    if (ncq == 1)
      EXPECT_NEAR(slat, 3 * clat, 0.1 * 3 * clat);
    else
      EXPECT_EQ(slat, 0.0);
  }
}

// The other mode's options, set by the user, would be silently ignored.
TEST(Reliability, OptionsOfTheModeNotInUseAreRefused) {
  const std::string trace = " --trace " + kSamples + "generated/fio_mix.iolog";
  const auto key = [](const std::string& arg) { return arg.substr(0, arg.find('=')); };
  for (const char* w : {"--workload.rw=read", "--workload.bs=8k", "--workload.iodepth=4", "--workload.rwmixread=50",
                        "--workload.percentage_random=50", "--workload.size=1m", "--workload.offset=4k",
                        "--workload.number_ios=10", "--workload.randseed=3"})
    expect_bad(kDrive + w + trace, "option '" + key(w) + "': does not apply to a trace replay");
  for (const char* t : {"--trace.iodepth=4", "--trace.mode=afap", "--trace.speed=2", "--trace.offset=4k",
                        "--trace.ops=read", "--trace.skip-bad=true", "--trace.start=1s"})
    expect_bad(kSmall + t, "option '" + key(t) + "': needs --trace=FILE");
  // What still applies to a replay: its duration limit and the data's compressibility.
  EXPECT_FALSE(run_ok(kDrive + "--workload.runtime=1ms" + trace, "mode_runtime").is_null());
  EXPECT_FALSE(run_ok(kDrive + "--controller.compression=true --workload.compressibility=50" + trace, "mode_cmp")
                   .is_null());
}

TEST(Reliability, D11_StrayArgumentsAndAbbreviationsAreRefused) {
  expect_bad("my-drive.ini --workload.number_ios=10", "unexpected argument 'my-drive.ini' (a config file? use --config");
  expect_bad("--workload.number=10", "workload.number");
  expect_bad("--rep=x.json --workload.number_ios=10", "rep");
  expect_bad("--trace.skip=true --workload.number_ios=10", "trace.skip");
}

TEST(Reliability, D12_ConfigThatCannotBeReadIsRefused) {
  expect_bad("--config=" + std::string(SSDSIM_SOURCE_DIR) + "/traces --workload.number_ios=10",
             "/traces: is a directory, not a config file");
  expect_bad("--config=/proc/self/mem --workload.number_ios=10", "/proc/self/mem: cannot read config file");
}

// A file saved by a Windows editor: the UTF-8 byte-order mark is dropped
// (the first line read as it looks), UTF-16 is refused by name.
TEST(Reliability, D12_ByteOrderMarksAreHandled) {
  const std::string ini = tmp("bom.ini"), job = tmp("bom.fio"), state = tmp("bom-state.ini"), u16 = tmp("u16.ini");
  write_text(ini, "\xEF\xBB\xBF[workload]\nnumber_ios = 10\n");
  write_text(job, "\xEF\xBB\xBF[j]\nrw=randread\nnumber_ios=10\n");
  write_text(state, "\xEF\xBB\xBF[state]\nphases = fill\n");
  EXPECT_EQ(run(kDrive + "--config " + ini).code, 0);
  EXPECT_EQ(run(kDrive + "--job " + job).code, 0);
  EXPECT_EQ(run(kDrive + "--state " + state + " --workload.number_ios=10").code, 0);
  write_text(u16, std::string("\xFF\xFE[\0n\0", 6));
  expect_bad(kDrive + "--config " + u16, u16 + ": config file is UTF-16 text (save it as UTF-8)");
}

// A device named as a config, job or state file is refused, not read
// forever (/dev/zero has no end and no newline), and a binary job file is
// refused at its first line without echoing raw bytes.
TEST(Reliability, D12_EndlessOrBinaryFilesAreRefused) {
  expect_bad("--config=/dev/zero", "/dev/zero: config file larger than 4 MiB");
  expect_bad(kDrive + "--job=/dev/zero", "/dev/zero: job file larger than 4 MiB (option '--job')");
  const std::string big = tmp("big-state.ini");
  std::ofstream(big) << std::string((size_t(4) << 20) + 1, '#');
  expect_bad(kDrive + "--state=" + big, "option '--state': " + big + ": larger than 4 MiB");
  const std::string bin = tmp("binary.fio");
  write_text(bin, "[job]\nrw=read\x01\x9b[2J\n");
  expect_bad(kDrive + "--job=" + bin, bin + ": line 2: not a text line: 'rw=read\\x01\\x9b[2J'");
}

// A trace read from a pipe or a device: detecting its format would consume
// its start, so the records would begin wherever the look stopped (a wrong
// error, or silently lost records). Refused unless the format is named;
// --powerfail.at=trace reads the trace twice and needs a file.
TEST(Reliability, D13_TraceFromAPipeNeedsItsFormat) {
  expect_bad(kDrive + "--trace /dev/null", "/dev/null: not a regular file (a pipe or a device)");
  expect_bad(kDrive + "--state fill,trace:/dev/null", "/dev/null: not a regular file (a pipe or a device)");
  expect_bad(kDrive + "--trace /dev/null --trace.format=fio --powerfail.at=trace",
             "option '--powerfail.at': =trace reads the trace twice");
}

// One SATA read or write moves at most 65536 sectors (32 MiB): a larger one
// is refused from every source (two concurrent 4 GiB writes had the DRAM
// port's calendar joining gaps for minutes), a TRIM is not bound by it.
TEST(Reliability, D13_ReadsAndWritesAboveOneSataCommandAreRefused) {
  const std::string says = "is more than one SATA read or write carries (65536 sectors, 32 MiB)";
  expect_bad(kDrive + "--workload.bs=32769k --workload.number_ios=1", "option '--workload.bs': " + says);
  EXPECT_EQ(run(kDrive + "--workload.bs=32m --workload.number_ios=2 --workload.rw=write").code, 0);
  const std::string log = tmp("big.iolog"), job = tmp("big.fio"), trim = tmp("bigtrim.fio");
  write_text(log, "fio version 2 iolog\n/dev/t add\n/dev/t open\n/dev/t write 0 33554944\n/dev/t close\n");
  expect_bad(kDrive + "--trace " + log, log + ": line 4: request of 33554944 bytes " + says);
  write_text(job, "[j]\nrw=read\nbs=33554944\nnumber_ios=1\n");
  expect_bad(kDrive + "--job " + job, job + ": line 3: option 'bs': block size 33554944 " + says);
  write_text(trim, "[j]\nrw=trim\nbs=64m\nnumber_ios=1\n");
  EXPECT_EQ(run(kDrive + "--job " + trim).code, 0);
}

TEST(Reliability, D13_NegativeTraceDeviceIsRefused) {
  for (const char* dev : {"-5", "-1", "8,-1", "x"})
    expect_bad(kDrive + "--trace " + kSamples + "generated/loop0.blktrace.0 --trace.device=" + dev,
               "option '--trace.device': expected MAJ,MIN");
}

// ---- D14: a record is remapped at most once

TEST(Reliability, D14_RemappedCountsRecordsOnce) {
  const std::string one = tmp("one.log");
  write_text(one, "fio version 2 iolog\n/dev/x write 4096 4096\n");
  auto j = run_ok(kDrive + "--trace " + one + " --trace.offset=1t", "d14a");
  ASSERT_FALSE(j.is_null());
  EXPECT_EQ(j["trace"]["remapped"].get<uint64_t>(), 1u);
  j = run_ok(kDrive + "--trace " + kSamples + "generated/fio_mix.iolog --trace.offset=1t", "d14b");
  ASSERT_FALSE(j.is_null());
  EXPECT_LE(j["trace"]["remapped"].get<uint64_t>(), j["trace"]["replayed"].get<uint64_t>());
}

// ---- D15: blktrace skip-bad resynchronises after a bad header

TEST(Reliability, D15_BlktraceSkipBadResynchronises) {
  const std::string good = kSamples + "generated/loop0.merged.bin", bad = tmp("bad.bin");
  std::filesystem::copy_file(good, bad, std::filesystem::copy_options::overwrite_existing);
  {
    std::fstream f(bad, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(49408);  // the version byte of event 1001 (not a queue event)
    f.put('\0');
  }
  const auto ref = run_ok(kDrive + "--trace " + good, "d15ref");
  const auto j = run_ok(kDrive + "--trace " + bad + " --trace.skip-bad", "d15");
  ASSERT_FALSE(j.is_null());
  EXPECT_EQ(j["trace"]["skipped_bad"].get<uint64_t>(), 1u);
  EXPECT_EQ(j["trace"]["resync_bytes"].get<uint64_t>(), 48u);  // one 48-byte header, no pdu
  EXPECT_EQ(j["trace"]["records_read"], ref["trace"]["records_read"]);
}

// ---- D17: impossible combinations and message quality

TEST(Reliability, D17_DramSmallerThanTheMappingTableIsRefused) {
  expect_bad("--dram.size=1m --workload.number_ios=1000", "option '--dram.size': 1048576 bytes of DRAM cannot hold");
  expect_bad(kSmall + "--dram.size=4k --dram.write_cache=4k", "option '--dram.size': 4096 bytes of DRAM cannot hold");
  // An SRAM write buffer is a DRAM-less controller's; a page at least.
  expect_bad(kSmall + "--controller.sram_write_buffer=64k",
             "option '--controller.sram_write_buffer': is a DRAM-less controller's (dram.size=0)");
  expect_bad(kSmall + "--dram.size=0 --controller.sram_write_buffer=2k",
             "option '--controller.sram_write_buffer': smaller than one page");
  // At most the controller's SRAM; with a DFTL's tables, the buffer the user
  // set is blamed, not the map cache left at its default.
  expect_bad(kSmall + "--dram.size=0 --controller.sram_write_buffer=1t",
             "option '--controller.sram_write_buffer': is more than the controller's SRAM (524288 B)");
  expect_bad(kSmall + "--dram.size=0 --ftl.name=dftl --controller.sram_write_buffer=500k",
             "option '--controller.sram_write_buffer': the map cache (");
  // A RAID-0 stripe larger than a member is its own error, not the workload's.
  expect_bad(kSmall + "--raid.members=2 --raid.stripe=1g", "option '--raid.stripe': a stripe of 1073741824 B is more than");
}

TEST(Reliability, D17_TwoOutputsOnOnePathAreRefused) {
  const std::string x = tmp("same.out");
  expect_bad(kSmall + "--report " + x + " --latency-log " + x, "option '--latency-log': writes to the same file as report");
  // Another name of the same file, and the outputs the first check missed.
  const std::string dir = x.substr(0, x.rfind('/'));
  const std::string again = dir + "/../" + dir.substr(dir.rfind('/') + 1) + "/same.out";
  expect_bad(kSmall + "--report " + x + " --timeseries " + again, "option '--timeseries': writes to the same file as report");
  expect_bad(kSmall + "--report " + x + " --output " + x, "option '--output': writes to the same file as report");
  expect_bad(kSmall + "--output " + x + " --save-state " + x, "option '--save-state': writes to the same file as output");
}

// An output over a file the run reads would destroy it (the job file, the
// trace, a config file): refused, and the input is left as it was.
TEST(Reliability, D17_AnOutputOverAnInputIsRefused) {
  const std::string job = tmp("in.fio"), ini = tmp("in.ini"), trace = tmp("in.iolog");
  const std::string job_text = "[j]\nrw=randread\nbs=4k\nnumber_ios=10\n";
  write_text(job, job_text);
  write_text(ini, "[workload]\nnumber_ios = 10\n");
  write_text(trace, "fio version 2 iolog\n/dev/t add\n/dev/t open\n/dev/t write 0 4096\n/dev/t close\n");
  expect_bad(kDrive + "--job " + job + " --output " + job, "option '--output': is the file --job reads (" + job + ")");
  expect_bad(kSmall + "--config " + ini + " --report " + ini, "option '--report': is the file --config reads (" + ini + ")");
  expect_bad(kDrive + "--trace " + trace + " --latency-log " + trace,
             "option '--latency-log': is the file --trace reads (" + trace + ")");
  expect_bad(kSmall + "--state fill,trace:" + trace + " --timeseries " + trace,
             "option '--timeseries': is the file --state reads (" + trace + ")");
  std::ifstream in(job);
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, job_text);
  // Another name of the input: a hard link is the same file.
  const std::string link = tmp("in-link.iolog");
  std::remove(link.c_str());
  ASSERT_EQ(::link(trace.c_str(), link.c_str()), 0);
  expect_bad(kDrive + "--trace " + trace + " --report " + link,
             "option '--report': is the file --trace reads (" + link + ")");
  // A blktrace NAME prefix reads NAME.blktrace.N: each of them is an input.
  const std::string name = tmp("in-bt");
  write_text(name + ".blktrace.0", "x");
  write_text(name + ".blktrace.1", "x");
  expect_bad(kDrive + "--trace " + name + " --latency-log " + name + ".blktrace.1",
             "option '--latency-log': is the file --trace reads (" + name + ".blktrace.1)");
}

// An option given where it shapes nothing (a pattern it does not apply to,
// a trace format without the field, the afap replay's pace, a hybrid FTL's
// idle merge without idle time) is refused, not silently ignored.
TEST(Reliability, D17_AnOptionThatShapesNothingHereIsRefused) {
  expect_bad(kSmall + "--workload.rw=read --workload.rwmixread=30",
             "option '--workload.rwmixread': mixes reads into writes: needs workload.rw=randrw, rw or readwrite (not read)");
  expect_bad(kSmall + "--workload.rw=write --workload.percentage_random=50",
             "option '--workload.percentage_random': makes part of a random pattern sequential");
  const std::string msr = " --trace " + kSamples + "generated/loop0_q.msr.csv";
  expect_bad(kDrive + "--trace.mode=afap --trace.speed=1000" + msr, "option '--trace.speed': paces a timed replay's");
  expect_bad(kDrive + "--trace.arrival=D" + msr, "option '--trace.arrival': chooses between blktrace's Q and D events: ");
  expect_bad(kDrive + "--trace.sector_size=4k" + msr, "option '--trace.sector_size': applies to the formats that count");
  expect_bad(kDrive + "--trace.sector_size=4k --trace " + kSamples + "generated/loop0.blktrace.0",
             "is a blktrace trace (512-byte sectors)");
  expect_bad(kSmall + "--ftl.name=bast --ftl.hybrid.idle_merge=false",
             "option '--ftl.hybrid.idle_merge': only matters with idle-time work: set ftl.idle_after too");
  // Where they apply, each is taken.
  EXPECT_FALSE(run_ok(kSmall + "--workload.rw=randrw --workload.rwmixread=30", "shapes_mix").is_null());
  EXPECT_FALSE(run_ok(kSmall + "--workload.rw=randwrite --workload.percentage_random=50", "shapes_rand").is_null());
  EXPECT_FALSE(run_ok(kDrive + "--trace.sector_size=4k --trace " + kSamples + "generated/loop0_q.spc", "shapes_spc")
                   .is_null());
  EXPECT_FALSE(run_ok(kDrive + "--trace.arrival=D --trace " + kSamples + "generated/loop0.blkparse.txt", "shapes_d")
                   .is_null());
}

// A time series writes a row per interval, empty ones too: a run of known
// length that would write more than 10^7 rows is refused before it starts.
TEST(Reliability, D17_ATimeSeriesOfTooManyRowsIsRefused) {
  expect_bad(kDrive + "--workload.number_ios=0 --workload.runtime=1s --timeseries=" + tmp("many.csv") +
                 " --timeseries.interval=10ns",
             "option '--timeseries.interval': gives 100000000 rows over workload.runtime 1s, more than 10000000");
  EXPECT_FALSE(run_ok(kDrive + "--workload.number_ios=0 --workload.runtime=1ms --timeseries=" + tmp("few.csv") +
                          " --timeseries.interval=100ns", "ts_rows").is_null());
}

// --export-trace writes the synthetic workload's requests and stops: an
// option only a simulation reads or writes would be silently ignored.
TEST(Reliability, D17_WhatOnlyASimulationUsesIsRefusedWithExportTrace) {
  const std::string out = tmp("export.csv"), trace = tmp("export-in.iolog");
  write_text(trace, "fio version 2 iolog\n/dev/t add\n/dev/t open\n/dev/t write 0 4096\n/dev/t close\n");
  for (const std::string& opt : std::vector<std::string>{"--report=" + tmp("x.json"), "--latency-log=" + tmp("x.csv"),
                                                         "--save-state=" + tmp("x.state"), "--powerfail.at=1ms",
                                                         "--output-format=json", "--precondition=used", "--state=fill"}) {
    const std::string key = opt.substr(2, opt.find('=') - 2);
    expect_bad(kSmall + "--export-trace=" + out + " " + opt,
               "option '--" + key + "': nothing is simulated with --export-trace");
  }
  expect_bad("--trace " + trace + " --export-trace=" + out,
             "option '--trace': cannot be combined with --export-trace");
}

TEST(Reliability, D17_TraceSectorSizeMustBeAPowerOfTwo) {
  expect_bad(kSmall + "--trace.sector_size=100B", "option '--trace.sector_size': must be a power of two");
}

TEST(Reliability, D17_IniErrorsNameTheLineAndStayPrintable) {
  const std::string garbage = tmp("garbage.ini");
  write_text(garbage, "[nand]\nchannels = 4\n\x01\xff\xfegarbage\n");
  const Result r = run("--config " + garbage);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(garbage + ": line 3: not a 'key = value' line: '\\x01\\xff\\xfegarbage'"), std::string::npos)
      << r.out;
}

TEST(Reliability, NestedConfigNamesItsLine) {
  const std::string ini = tmp("nested.ini");
  write_text(ini, "# a drive\n\nconfig = other.ini\n[nand]\nchannels = 4\n");
  expect_bad("--config " + ini, ini + ": line 3: 'config' cannot be nested in a config file");
}

TEST(Reliability, D17_UnwritableLogNamesTheOption) {
  expect_bad(kSmall + "--latency-log=/dev/full", "option '--latency-log': /dev/full: write failed");
  expect_bad(kSmall + "--timeseries=/dev/full", "option '--timeseries': /dev/full: write failed");
  // A JSON report larger than the stream's buffer: its first writes fail,
  // the last flush may not; the stream's error flag says so.
  expect_bad(kSmall + "--output-format=json --output=/dev/full", "/dev/full: write failed (option 'output')");
  expect_bad(kSmall + "--powerfail.at=1ms --powerfail.lost=/dev/full", "/dev/full: write failed (option 'powerfail.lost')");
  expect_bad(kSmall + "--powerfail.at=1ms --powerfail.lost=/nonexistent-dir/lost.csv",
             "option '--powerfail.lost': /nonexistent-dir/lost.csv: cannot open for writing");
  // Standard output on a full disk: exit 2, not 0 with the summary lost
  // (the message goes where stdout went, so only the status is checked).
  EXPECT_EQ(run(kSmall + "--output-format=json >/dev/full").code, 2);
}

TEST(Reliability, AnOutputOnStandardOutputIsRefused) {
  // The summary goes to stdout: a report or a log written there too would
  // be mixed into it. /dev/stdout, and the file a shell sent stdout to.
  expect_bad(kSmall + "--report /dev/stdout",
             "option '--report': /dev/stdout is standard output, where the run's summary goes");
  expect_bad(kSmall + "--latency-log /dev/stdout", "option '--latency-log': /dev/stdout is standard output");
  const std::string out = tmp("stdout_here.txt");
  const Result r = run(kSmall + "--timeseries " + out + " >" + out);
  EXPECT_EQ(r.code, 2);
  std::ifstream in(out);
  const std::string said((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(said.find("option '--timeseries': " + out + " is standard output"), std::string::npos) << said;
  // Accepted: /dev/null beside a stdout sent there, and stdout given a file of its own.
  EXPECT_EQ(run(kSmall + "--report /dev/null >/dev/null").code, 0);
  EXPECT_EQ(run(kSmall + "--report /dev/stdout --output " + tmp("summary.txt")).code, 0);
}

TEST(Reliability, LogOnAFullDiskStopsTheRun) {
  // A run of a thousand simulated seconds (hours of wall time) into a log
  // nothing can be written to stops within a buffer's worth of rows,
  // naming the option; before, it ran to its end and failed there.
  const std::string endless = kDrive + "--workload.rw=randread --workload.number_ios=0 --workload.runtime=1000s ";
  expect_bad(endless + "--latency-log=/dev/full", "option '--latency-log': /dev/full: write failed (the run stopped after");
  expect_bad(endless + "--timeseries=/dev/full --timeseries.interval=1ms",
             "option '--timeseries': /dev/full: write failed (the run stopped after");
}

TEST(Reliability, D17_ReportStatesWhyTheRunStopped) {
  auto j = run_ok(kSmall + "--workload.number_ios=0 --workload.runtime=20ms", "stop1");
  ASSERT_FALSE(j.is_null());
  EXPECT_EQ(j["device"]["stop_reason"], "workload.runtime reached");
  j = run_ok(kSmall, "stop2");
  EXPECT_EQ(j["device"]["stop_reason"], "workload done");
}

TEST(Reliability, ReplayErrorsSayLineOrByteOffset) {
  const std::string log = tmp("beyond.log");
  write_text(log, "fio version 2 iolog\n/dev/x write 0 4096\n/dev/x write 1099511627776 4096\n");
  expect_bad(kDrive + "--trace " + log + " --trace.beyond=error", log + ": line 3: address ");
}

// ---- FLUSH CACHE is non-queued

TEST(Reliability, FlushDrainsTheQueueAndHoldsItUntilDone) {
  // 40 writes, a flush, 40 writes, afap at QD32: the flush starts after every
  // earlier command completed, and no later command starts before it ends.
  std::string text = "fio version 2 iolog\n/dev/x add\n/dev/x open\n";
  for (int i = 0; i < 40; ++i) text += "/dev/x write " + std::to_string(i * 65536) + " 4096\n";
  text += "/dev/x sync 0 0\n";
  for (int i = 40; i < 80; ++i) text += "/dev/x write " + std::to_string(i * 65536) + " 4096\n";
  const std::string trace = tmp("flush.log"), lat = tmp("flush_lat.csv");
  write_text(trace, text);
  const auto j = run_ok(kDrive + "--trace " + trace + " --trace.mode=afap --dram.write_cache=256k --latency-log " + lat,
                        "flush");
  ASSERT_FALSE(j.is_null());
  ASSERT_EQ(j["flush"]["total_ios"].get<uint64_t>(), 1u);
  const auto rows = read_csv(lat);
  uint64_t flush_id = 0, flush_start = 0, flush_done = 0;
  for (size_t i = 1; i < rows.size(); ++i)
    if (rows[i][1] == "flush")
      flush_id = std::stoull(rows[i][0]), flush_start = std::stoull(rows[i][5]), flush_done = std::stoull(rows[i][6]);
  ASSERT_GT(flush_done, 0u);
  for (size_t i = 1; i < rows.size(); ++i) {
    const uint64_t id = std::stoull(rows[i][0]);
    if (id < flush_id) {
      EXPECT_LE(std::stoull(rows[i][6]), flush_start) << "row " << i;
    }
    if (id > flush_id) {
      EXPECT_GE(std::stoull(rows[i][5]), flush_done) << "row " << i;
    }
  }
}

// The README's consistency recipe (configs/workloads/steady-state-4k-qd32.ini
// with --timeseries) shows what docs/architecture.md promises: the
// fresh-out-of-box plateau, the drop when the spare runs out, the steady state.
TEST(ConsistencyRecipe, ShowsPlateauDropAndSteadyState) {
  const std::string ts = tmp("consistency.csv");
  // The default drive (8 ch x 4 dies, tPROG 900 us, 40 MB/s, 4 KiB pages,
  // 7 % spare, GC at 2 free blocks) with 128 blocks per plane.
  const Result r = run("--config " + std::string(SSDSIM_SOURCE_DIR) +
                       "/configs/workloads/steady-state-4k-qd32.ini --nand.blocks_per_plane=128 "
                       "--workload.runtime=8s --timeseries.interval=250ms --timeseries " + ts);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rows = read_csv(ts);
  ASSERT_GE(rows.size(), 32u);
  std::vector<double> iops;
  for (size_t i = 1; i + 1 < rows.size(); ++i) iops.push_back(std::stod(rows[i][5]));  // full intervals only
  // Plateau: every die programming back to back, one page each tPROG + its transfer.
  const double dies = 32, page_time = 900e-6 + 4096 / 40e6, plateau = dies / page_time;
  for (size_t i = 0; i < 6; ++i) EXPECT_NEAR(iops[i], plateau, 0.05 * plateau) << "interval " << i;
  // The drop: the plateau lasts until the fresh pages after the fill are used,
  // less the GC threshold's 2 blocks per die.
  const double raw = 8.0 * 4 * 2 * 128 * 128, user = std::floor(raw / 1.07);
  const double fresh_pages = raw - user - dies * 2 * 128;
  double written = 0;
  size_t drop = 0;
  while (drop < iops.size() && iops[drop] > plateau / 2) written += iops[drop++] * 0.25;
  ASSERT_LT(drop, iops.size()) << "no drop";
  written += iops[drop] * 0.25;  // the interval in which it happened
  EXPECT_NEAR(written, fresh_pages, 0.1 * fresh_pages);
  // Steady state: the last 4 s flat within 15 % of their mean, far below the plateau.
  double mean = 0;
  const size_t from = iops.size() - 16;
  for (size_t i = from; i < iops.size(); ++i) mean += iops[i] / 16;
  EXPECT_LT(mean, plateau / 5);
  for (size_t i = from; i < iops.size(); ++i) EXPECT_NEAR(iops[i], mean, 0.15 * mean) << "interval " << i;
}

// An FTL that cannot run the configuration names its option (exit 2).
TEST(FtlConfig, TooManyLogBlocksNamesTheOption) {
  expect_bad(kSmall + "--ftl.name=bast --ftl.log_blocks=500", "option '--ftl.log_blocks': ftl.log_blocks=500 exceeds");
}

TEST(FtlConfig, BlockBufferBeyondABlockNamesTheOption) {
  expect_bad(kSmall + "--ftl.name=block --ftl.block.buffer=1000", "option '--ftl.block.buffer'");
}

TEST(FtlConfig, AnOptionOfAnotherPolicyIsRefused) {
  expect_bad(kSmall + "--ftl.gc.policy=fifo --ftl.gc.d=4", "option '--ftl.gc.d': only applies to ftl.gc.policy=d-choice");
}
TEST(FtlConfig, PluginOptionOutOfRangeNamesTheOption) {
  expect_bad(kSmall + "--ftl.gc.policy=d-choice --ftl.gc.d=0", "option '--ftl.gc.d'");
}

TEST(FtlConfig, DftlMapCacheBeyondDramNamesTheOption) {
  expect_bad(kSmall + "--ftl.name=dftl --dram.size=1m --ftl.map_cache=2m", "option '--ftl.map_cache'");
  expect_bad(kSmall + "--ftl.name=dftl --dram.size=0 --ftl.map_cache=1m", "controller SRAM");
  // The SRAM write buffer takes its share of that SRAM: a cache that fits
  // alone no longer does.
  run_ok(kSmall + "--ftl.name=dftl --dram.size=0 --ftl.map_cache=256k", "sram1");
  expect_bad(kSmall + "--ftl.name=dftl --dram.size=0 --ftl.map_cache=256k --controller.sram_write_buffer=384k",
             "less the write buffer's 393216");
}

}  // namespace reliability_test
