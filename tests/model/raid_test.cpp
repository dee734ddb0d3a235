// RAID-0 of controllers behind one port (raid.members, model/raid): the
// front-end's cost on an idle drive, a command split at a stripe boundary,
// striping's throughput scaling until the SATA link limits, and the
// bookkeeping of which member each command reached.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/model/cli_util.h"

namespace raid_test {

using ssdtest::read_json;
using ssdtest::run;
using ssdtest::tmp;

// Each member: 1 channel x 1 die, so its writes run at one die's program rate.
const std::string kMember =
    "--nand.channels=1 --nand.dies_per_channel=1 --nand.planes_per_die=1 --nand.blocks_per_plane=256 "
    "--nand.pages_per_block=64 --nand.t_prog=900us --ftl.op=0.25 --log-level=off ";

nlohmann::json drive(const std::string& args, const std::string& name) {
  const std::string rep = tmp(name + ".json");
  const auto r = run(kMember + args + " --report " + rep);
  EXPECT_EQ(r.code, 0) << r.out;
  return read_json(rep);
}

TEST(Raid, FrontEndAddsItsCostToAnIdleCommand) {
  const std::string one = "--precondition=seq-fill --workload.rw=read --workload.bs=4k --workload.iodepth=1 "
                          "--workload.number_ios=1 ";
  const auto single = drive(one, "single");
  const auto striped = drive(one + "--raid.members=2 --raid.cmd_overhead=5us", "striped");
  EXPECT_EQ(striped["read"]["lat_ns"]["min"].get<uint64_t>(), single["read"]["lat_ns"]["min"].get<uint64_t>() + 5000);
  EXPECT_FALSE(single["device"].contains("raid"));  // one member: no front-end at all
}

TEST(Raid, CommandAcrossAStripeBoundaryWaitsForBothMembers) {
  // 8 KiB at 128 KiB - 4 KiB: one page on each member, programmed in
  // parallel; the command ends when the later ends: on an idle drive, both
  // at the same time, i.e. one 4 KiB write's schedule after the 8 KiB of data.
  const std::string w = "--precondition=none --workload.rw=write --workload.bs=8k --workload.iodepth=1 "
                        "--workload.number_ios=1 --workload.offset=126976B ";
  const auto j = drive(w + "--raid.members=2", "span");
  EXPECT_EQ(j["device"]["raid"]["sub_commands"], nlohmann::json::array({1, 1}));
  EXPECT_EQ(j["device"]["raid"]["split_commands"], 1);
  EXPECT_EQ(j["device"]["members"][0]["host_pages_written"], 1);
  EXPECT_EQ(j["device"]["members"][1]["host_pages_written"], 1);
  // The same 8 KiB on one member programs two pages on its one die, one
  // after the other, and stages twice the data in its DRAM (666 MB/s).
  const auto one = drive(w, "span1");
  const double prog = 900e3 + 4096 / 40e6 * 1e9, staging = 4096 / 666e6 * 1e9;  // ns
  EXPECT_NEAR(one["write"]["lat_ns"]["min"].get<double>() - j["write"]["lat_ns"]["min"].get<double>(), prog + staging,
              2.0);
}

TEST(Raid, AReadStreamsThroughTheChipPageByPage) {
  // 64 KiB at offset 0 lies in member 0's first stripe piece (128 KiB): its
  // 16 pages come off the one die a page at a time, and the link sends each
  // Data FIS once its pages are in, as from a single drive. A chip that held
  // the piece until all of it was in would add the link time of every FIS
  // but the last (7 x 8 KiB at 300 MB/s, 191 us).
  const std::string rd = "--precondition=seq-fill --workload.rw=read --workload.iodepth=1 --workload.number_ios=1 ";
  const auto one64 = drive(rd + "--workload.bs=64k", "stream1");
  const auto two64 = drive(rd + "--workload.bs=64k --raid.members=2", "stream2");
  EXPECT_EQ(two64["read"]["lat_ns"]["min"].get<uint64_t>(), one64["read"]["lat_ns"]["min"].get<uint64_t>());
  // 256 KiB: member 0's piece streams as 128 KiB from one drive; member 1
  // read its piece at the same time, so its 16 FISes follow back to back.
  const auto one128 = drive(rd + "--workload.bs=128k", "stream3");
  const auto two256 = drive(rd + "--workload.bs=256k --raid.members=2", "stream4");
  EXPECT_EQ(two256["device"]["raid"]["split_commands"], 1);
  const double fis = 8192 / 300e6 * 1e9;  // ns
  EXPECT_NEAR(two256["read"]["lat_ns"]["min"].get<double>(), one128["read"]["lat_ns"]["min"].get<double>() + 16 * fis,
              16.0);
}

TEST(Raid, TwoMembersWriteTwiceAsFastUntilTheLinkLimits) {
  // Sequential 1 MiB writes, stripe 128 KiB: each member's die programs
  // 4 KiB per (transfer + tPROG); two members do twice that.
  const std::string seq = "--precondition=none --workload.rw=write --workload.bs=1m --workload.iodepth=4 "
                          "--workload.number_ios=40 ";
  const double one = drive(seq, "seq1")["write"]["bw_bytes"].get<double>();
  const double two = drive(seq + "--raid.members=2", "seq2")["write"]["bw_bytes"].get<double>();
  const double die = 4096 / (900e-6 + 4096 / 40e6);
  EXPECT_NEAR(one, die, die * 0.03);
  EXPECT_NEAR(two, 2 * die, 2 * die * 0.03);
  // Members of 32 dies each: one writes at ~130 MB/s, four would do 520 MB/s,
  // but the SATA 2 link carries 300 MB/s of payload (1 MiB + a 2 us command).
  const std::string big = "--nand.channels=8 --nand.dies_per_channel=4 --workload.iodepth=32 --workload.number_ios=400 ";
  const double four = drive(seq + big + "--raid.members=4", "seq4")["write"]["bw_bytes"].get<double>();
  const double link = (1 << 20) / ((1 << 20) / 300e6 + 2e-6);
  EXPECT_NEAR(four, link, link * 0.03);
}

TEST(Raid, RandomSmallWritesTouchOneMemberEach) {
  const auto j = drive("--precondition=seq-fill --workload.rw=randwrite --workload.bs=4k --workload.iodepth=8 "
                       "--workload.number_ios=500 --raid.members=3",
                       "rand");
  const auto& subs = j["device"]["raid"]["sub_commands"];
  EXPECT_EQ(subs[0].get<uint64_t>() + subs[1].get<uint64_t>() + subs[2].get<uint64_t>(), 500u);
  EXPECT_EQ(j["device"]["raid"]["split_commands"], 0);
  EXPECT_EQ(j["device"]["host_pages_written"], 500);
  EXPECT_EQ(j["device"]["members"].size(), 3u);
}

TEST(Raid, PackedPagesAreSummedOverTheMembers) {
  // 2 KiB map units packed two to a 4 KiB flash page: the top level sums the
  // members' compression figures and takes its flash pages from all channels.
  const auto j = drive("--controller.map_unit=2k --raid.members=2 --raid.stripe=8k --workload.rw=randwrite "
                       "--workload.bs=2k --workload.number_ios=600",
                       "packed");
  const auto& d = j["device"];
  ASSERT_TRUE(d.contains("compression")) << d.dump();
  uint64_t logical = 0, physical = 0, programs = 0;
  for (const auto& m : d["members"]) {
    logical += m["compression"]["logical_bytes_written"].get<uint64_t>();
    physical += m["compression"]["physical_bytes_written"].get<uint64_t>();
  }
  for (const auto& c : d["channels"]) programs += c["programs"].get<uint64_t>() + c["gc_programs"].get<uint64_t>();
  EXPECT_EQ(d["compression"]["compressed_page_bytes"], 2048);
  EXPECT_EQ(d["compression"]["logical_bytes_written"].get<uint64_t>(), logical);
  EXPECT_EQ(d["compression"]["physical_bytes_written"].get<uint64_t>(), physical);
  EXPECT_EQ(physical, programs * 4096);
  // 600 units of 2 KiB fill 300 flash pages (less any half page still in a buffer).
  EXPECT_EQ(logical, 600u * 2048);
  EXPECT_NEAR(double(programs), 300.0, 2.0);
  EXPECT_DOUBLE_EQ(d["compression"]["flash_write_amplification"].get<double>(), double(programs) / 600.0);
}

TEST(Raid, ContentChecksSeeHostAddresses) {
  const auto j = drive("--precondition=used --workload.rw=randrw --workload.bs=12k --workload.iodepth=8 "
                       "--workload.number_ios=2000 --raid.members=2 --raid.stripe=8k --check.content=true",
                       "content");
  EXPECT_GT(j["device"]["content_check"]["pages_checked"].get<uint64_t>(), 2000u);
  EXPECT_GT(j["device"]["raid"]["split_commands"].get<uint64_t>(), 0u);
}

// nand.suspend behind the front-end: a timed replay of a write and a read
// 500 us later on member 0 (stripe 4 KiB: host page 2 is member 0's page
// 1), write-through, suspend off and on.
nlohmann::json suspend_run(uint64_t write_offset, uint64_t write_bytes, bool on, const std::string& name) {
  const std::string trace = tmp(name + ".iolog");
  std::ofstream(trace) << "fio version 3 iolog\n0 /dev/sdb add\n0 /dev/sdb write " << write_offset << " "
                       << write_bytes << "\n500 /dev/sdb read 8192 4096\n";
  return drive("--precondition=seq-fill --raid.members=2 --raid.stripe=4k --trace " + trace +
                   (on ? " --nand.suspend=true --nand.t_suspend=30us" : ""),
               name);
}

TEST(Raid, AReadSuspendsAMembersWriteThroughProgramAndTheHostWaits) {
  // 4 KiB on member 0: its program is suspended, and the host's write
  // completes later by the die's time away (t_suspend + tR + the page out
  // at 40 MB/s).
  const auto off = suspend_run(0, 4096, false, "wt_off"), on = suspend_run(0, 4096, true, "wt_on");
  const uint64_t away_ns = 30000 + 50000 + 102400;
  EXPECT_EQ(on["device"]["channels"][0]["suspends"], 1);  // channels[0]: member 0's
  EXPECT_EQ(on["write"]["lat_ns"]["max"].get<uint64_t>(), off["write"]["lat_ns"]["max"].get<uint64_t>() + away_ns);
  EXPECT_LT(on["read"]["lat_ns"]["max"].get<uint64_t>(), off["read"]["lat_ns"]["max"].get<uint64_t>());
}

TEST(Raid, ASuspendedMemberMovesTheHostsWriteOnlyPastItsOtherMembers) {
  // 12 KiB from host page 1: two pages on member 1 (programmed one after
  // the other), one on member 0. Suspending member 0's program leaves it
  // still ahead of member 1's: the write completes when it did.
  const auto off = suspend_run(4096, 12288, false, "split_off"), on = suspend_run(4096, 12288, true, "split_on");
  EXPECT_EQ(on["device"]["channels"][0]["suspends"], 1);
  EXPECT_EQ(on["write"]["lat_ns"]["max"], off["write"]["lat_ns"]["max"]);
  EXPECT_LT(on["read"]["lat_ns"]["max"].get<uint64_t>(), off["read"]["lat_ns"]["max"].get<uint64_t>());
}

TEST(Raid, AMemberWithoutNcqServesOneSubCommandAtATime) {
  // Members of 8 dies, random 4 KiB reads of a seq-filled drive: every read
  // alone takes the same time L1 (QD1). With raid.member_queue=1 and the
  // span on member 0 only, 4 outstanding reads run on it one at a time: one
  // ends every L1 less at most what of L1 is on the link (the command FIS,
  // 2 us, and the data, 4 KiB at 300 MB/s), which the chip's held commands
  // overlap. With the default queue its dies serve them together.
  const std::string rr = "--nand.channels=2 --nand.dies_per_channel=4 --precondition=seq-fill "
                         "--workload.rw=randread --workload.bs=4k --workload.number_ios=2000 --raid.members=2 ";
  const auto qd1 = drive(rr + "--workload.size=128k --workload.iodepth=1", "mq_qd1");
  const double l1 = qd1["read"]["lat_ns"]["mean"].get<double>();
  EXPECT_EQ(qd1["read"]["lat_ns"]["min"].get<double>(), l1);  // (every read alone takes the same time)
  const double link = 2000 + 4096 / 300e6 * 1e9;
  const auto one = drive(rr + "--workload.size=128k --workload.iodepth=4 --raid.member_queue=1", "mq_one");
  EXPECT_EQ(one["device"]["raid"]["sub_commands"], nlohmann::json::array({2000, 0}));
  const double iops = one["read"]["iops"].get<double>();
  EXPECT_GT(iops, 1e9 / l1 * 1.02);
  EXPECT_LE(iops, 1e9 / (l1 - link));
  const auto all = drive(rr + "--workload.size=128k --workload.iodepth=4", "mq_all");
  EXPECT_GT(all["read"]["iops"].get<double>(), 2 * iops);
  // Both members, 4 KiB stripes: each still one at a time, the two at once.
  const auto two = drive(rr + "--raid.stripe=4k --workload.iodepth=8 --raid.member_queue=1", "mq_two");
  EXPECT_GT(two["read"]["iops"].get<double>(), 1.5 * iops);
  EXPECT_LE(two["read"]["iops"].get<double>(), 2e9 / (l1 - link));
}

TEST(Raid, BadValuesAreExit2) {
  for (const std::string bad : {"--raid.members=0", "--raid.members=17", "--raid.members=2 --raid.stripe=6k",
                                "--raid.members=2 --powerfail.at=1ms", "--device=hdd --raid.members=2",
                                "--raid.members=2 --raid.member_queue=0", "--raid.members=2 --raid.member_queue=33",
                                // (a RAID option for a single SSD would be ignored)
                                "--raid.stripe=256k", "--raid.cmd_overhead=1us", "--raid.member_queue=1"}) {
    const auto r = run(bad + " --log-level=off");
    EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
    EXPECT_EQ(ssdtest::program_lines(r.out), 1) << r.out;
  }
}

}  // namespace raid_test

