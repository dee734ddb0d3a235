// The drive driven by plain TLM-2.0 generic payloads (no HostCommand
// extension), as a virtual platform's initiator drives it: the same timing
// as the built-in host's commands, the payload errors of the base protocol,
// and with --store-data the bytes read back are those written.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "model/sim/ssd_drive.h"
#include "tests/model/sim_harness.h"

namespace plain_payload_test {

using sc_core::sc_time;
using ssdtlm::HostCommand;
using ssdtlm::HostOp;

// A small drive with no write cache: every write programs flash, and a read
// of a written page goes to flash while an unwritten one does not.
ssd::SimConfig small_drive(std::vector<std::string> extra = {}) {
  std::vector<std::string> a{"--nand.channels=2",         "--nand.dies_per_channel=2", "--nand.blocks_per_plane=64",
                             "--nand.pages_per_block=64", "--precondition=none",       "--dram.write_cache=0"};
  a.insert(a.end(), extra.begin(), extra.end());
  return ssdtest::parse(a).config();
}

// Runs `script` in a thread with one initiator socket per drive.
struct Initiator : sc_core::sc_module {
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<Initiator>>> sockets;
  std::function<void(Initiator&)> script;

  Initiator(sc_core::sc_module_name name, size_t n, std::function<void(Initiator&)> s)
      : sc_module(name), script(std::move(s)) {
    for (size_t i = 0; i < n; ++i)
      sockets.push_back(
          std::make_unique<tlm_utils::simple_initiator_socket<Initiator>>(("socket" + std::to_string(i)).c_str()));
    sc_core::sc_spawn([this] { script(*this); });
  }

  // One transaction on drive `i`, started now; returns its latency (the
  // annotated delay) without waiting for it.
  sc_time send(size_t i, tlm::tlm_generic_payload& t) {
    sc_time delay = sc_core::SC_ZERO_TIME;
    (*sockets[i])->b_transport(t, delay);
    return delay;
  }
};

void plain(tlm::tlm_generic_payload& t, tlm::tlm_command cmd, uint64_t addr, std::vector<unsigned char>& buf) {
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_ptr(buf.data());
  t.set_data_length(unsigned(buf.size()));
  t.set_streaming_width(unsigned(buf.size()));
  t.set_byte_enable_ptr(nullptr);
  t.set_byte_enable_length(0);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((i * 131 + seed * 7 + 1) % 251);
  return v;
}

TEST(PlainPayload, SameLatencyAsAnEquivalentHostCommand) {
  const ssd::SimConfig cfg = small_drive();
  ssd::SsdDrive a("a", cfg), b("b", cfg);
  struct Step {
    HostOp op;
    uint64_t offset, bytes;
  };
  // Write, read it back (flash), read a page never written (no flash), an
  // unaligned write (read-modify-write of two partial pages), a long read.
  const std::vector<Step> steps{{HostOp::Write, 0, 4096},
                                {HostOp::Read, 0, 4096},
                                {HostOp::Read, 1 << 20, 4096},
                                {HostOp::Write, 8192 + 512, 16384},
                                {HostOp::Read, 8192, 32768},
                                {HostOp::Write, 65536, 131072},
                                {HostOp::Read, 65536 - 4096, 131072}};
  std::vector<std::pair<sc_time, sc_time>> lat;
  Initiator init("init", 2, [&](Initiator& self) {
    for (const Step& s : steps) {
      std::vector<unsigned char> buf(s.bytes);
      tlm::tlm_generic_payload with, without;
      HostCommand cmd;
      cmd.op = s.op;
      cmd.offset = s.offset;
      cmd.bytes = s.bytes;
      cmd.ncq_tag = 0;
      const tlm::tlm_command c = s.op == HostOp::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND;
      plain(with, c, s.offset, buf);
      with.set_extension(&cmd);
      plain(without, c, s.offset, buf);
      const sc_time da = self.send(0, with), db = self.send(1, without);
      with.clear_extension(&cmd);
      EXPECT_TRUE(with.is_response_ok());
      EXPECT_TRUE(without.is_response_ok());
      EXPECT_EQ(without.get_extension<HostCommand>(), nullptr);  // detached again
      lat.emplace_back(da, db);
      sc_core::wait(std::max(da, db));
    }
  });
  init.sockets[0]->bind(a.sata.host);
  init.sockets[1]->bind(b.sata.host);
  sc_core::sc_start();

  ASSERT_EQ(lat.size(), steps.size());
  for (size_t i = 0; i < steps.size(); ++i) EXPECT_EQ(lat[i].first, lat[i].second) << "step " << i;
  // The translation is not vacuous: the written page is read from flash
  // (at least tR), the never-written one is not.
  EXPECT_GT(lat[1].second, cfg.nand.t_read);
  EXPECT_LT(lat[2].second, cfg.nand.t_read);
  EXPECT_EQ(b.sata.commands(), steps.size());
}

TEST(PlainPayload, StoreDataReadsBackWhatWasWrittenAndZerosElsewhere) {
  const ssd::SimConfig cfg = small_drive({"--store-data"});
  ssd::SsdDrive d("d", cfg);
  Initiator init("init", 1, [&](Initiator& self) {
    tlm::tlm_generic_payload t;
    auto io = [&](tlm::tlm_command c, uint64_t addr, std::vector<unsigned char>& buf) {
      plain(t, c, addr, buf);
      sc_core::wait(self.send(0, t));
      EXPECT_TRUE(t.is_response_ok()) << t.get_response_string();
    };
    auto data = pattern(20000, 1);
    io(tlm::TLM_WRITE_COMMAND, 4096 * 10 + 3, data);
    std::vector<unsigned char> back(data.size(), 0xAA);
    io(tlm::TLM_READ_COMMAND, 4096 * 10 + 3, back);
    EXPECT_EQ(back, data);
    std::vector<unsigned char> never(8192, 0xAA);
    io(tlm::TLM_READ_COMMAND, 1 << 20, never);
    EXPECT_EQ(never, std::vector<unsigned char>(8192, 0));
    // TRIM through the extension (whole pages 11 and 12): those bytes read as zeros.
    HostCommand trim;
    trim.op = HostOp::Trim;
    trim.offset = 4096 * 11;
    trim.bytes = 8192;
    t.set_command(tlm::TLM_IGNORE_COMMAND);
    t.set_data_ptr(nullptr);
    t.set_data_length(0);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    t.set_extension(&trim);
    sc_core::wait(self.send(0, t));
    t.clear_extension(&trim);
    EXPECT_TRUE(t.is_response_ok());
    std::vector<unsigned char> after(data.size(), 0xAA);
    io(tlm::TLM_READ_COMMAND, 4096 * 10 + 3, after);
    auto want = data;
    std::fill(want.begin() + (4096 - 3), want.begin() + (4096 - 3) + 8192, 0);
    EXPECT_EQ(after, want);
  });
  init.sockets[0]->bind(d.sata.host);
  sc_core::sc_start();
  ASSERT_NE(d.sata.data_store(), nullptr);
}

TEST(PlainPayload, WithoutStoreDataTheDataIsNotTouched) {
  const ssd::SimConfig cfg = small_drive();
  ssd::SsdDrive d("d", cfg);
  Initiator init("init", 1, [&](Initiator& self) {
    tlm::tlm_generic_payload t;
    auto data = pattern(4096, 2);
    plain(t, tlm::TLM_WRITE_COMMAND, 0, data);
    sc_core::wait(self.send(0, t));
    std::vector<unsigned char> back(4096, 0xAA);
    plain(t, tlm::TLM_READ_COMMAND, 0, back);
    sc_core::wait(self.send(0, t));
    EXPECT_TRUE(t.is_response_ok());
    EXPECT_EQ(back, std::vector<unsigned char>(4096, 0xAA));
    EXPECT_EQ(data, pattern(4096, 2));
  });
  init.sockets[0]->bind(d.sata.host);
  sc_core::sc_start();
  EXPECT_EQ(d.sata.data_store(), nullptr);
}

TEST(PlainPayload, BaseProtocolErrors) {
  const ssd::SimConfig cfg = small_drive();
  ssd::SsdDrive d("d", cfg);
  const uint64_t capacity = d.controller.user_bytes();
  std::vector<tlm::tlm_response_status> got;
  std::vector<sc_time> delays;
  Initiator init("init", 1, [&](Initiator& self) {
    std::vector<unsigned char> buf(4096);
    unsigned char enables[4] = {0xff, 0, 0xff, 0};
    tlm::tlm_generic_payload t;
    auto issue = [&] {
      delays.push_back(self.send(0, t));
      got.push_back(t.get_response_status());
      EXPECT_EQ(t.get_extension<HostCommand>(), nullptr);
    };
    plain(t, tlm::TLM_READ_COMMAND, capacity - 4096, buf);  // the last page: fine
    issue();
    plain(t, tlm::TLM_READ_COMMAND, capacity - 2048, buf);  // crosses the end
    issue();
    plain(t, tlm::TLM_WRITE_COMMAND, 0, buf);
    t.set_byte_enable_ptr(enables);
    t.set_byte_enable_length(4);
    issue();
    plain(t, tlm::TLM_WRITE_COMMAND, 0, buf);
    t.set_streaming_width(512);
    issue();
    plain(t, tlm::TLM_WRITE_COMMAND, 0, buf);
    t.set_data_length(0);
    issue();
    plain(t, tlm::TLM_IGNORE_COMMAND, 0, buf);
    issue();
  });
  init.sockets[0]->bind(d.sata.host);
  sc_core::sc_start();
  const std::vector<tlm::tlm_response_status> want{
      tlm::TLM_OK_RESPONSE,          tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE,
      tlm::TLM_BURST_ERROR_RESPONSE, tlm::TLM_GENERIC_ERROR_RESPONSE, tlm::TLM_OK_RESPONSE};
  EXPECT_EQ(got, want);
  ASSERT_EQ(delays.size(), want.size());
  EXPECT_GT(delays[0], sc_core::SC_ZERO_TIME);
  for (size_t i = 1; i < delays.size(); ++i) EXPECT_EQ(delays[i], sc_core::SC_ZERO_TIME) << "request " << i;
  EXPECT_EQ(d.sata.commands(), 1u);  // only the accepted read reached the link
}

TEST(PlainPayload, ItsWritesAreNotSuspendedForItCannotBeToldOfALaterCompletion) {
  // nand.suspend postpones the completion of a write whose program a read
  // suspends; a plain payload's initiator already has its answer (and the
  // command the SATA interface built for it is gone), so its programs are
  // not suspended: a read in the middle of one waits for it.
  const ssd::SimConfig cfg = small_drive({"--nand.channels=1", "--nand.dies_per_channel=1", "--nand.suspend=true"});
  ssd::SsdDrive d("d", cfg);
  sc_time write_end, read_end;
  Initiator init("init", 1, [&](Initiator& self) {
    tlm::tlm_generic_payload w, r;
    auto a = pattern(4096, 3), b = pattern(4096, 4);
    plain(w, tlm::TLM_WRITE_COMMAND, 0, a);
    sc_core::wait(self.send(0, w));  // page 0 on flash
    plain(w, tlm::TLM_WRITE_COMMAND, 4096, b);
    write_end = sc_core::sc_time_stamp() + self.send(0, w);
    sc_core::wait(cfg.nand.t_prog / 2);  // into the program
    std::vector<unsigned char> back(4096);
    plain(r, tlm::TLM_READ_COMMAND, 0, back);
    read_end = sc_core::sc_time_stamp() + self.send(0, r);
    EXPECT_TRUE(r.is_response_ok());
  });
  init.sockets[0]->bind(d.sata.host);
  sc_core::sc_start();
  EXPECT_EQ(d.channels[0]->stats().suspends, 0u);
  EXPECT_GT(read_end, write_end);  // behind the program (tR, then the page out)
}

}  // namespace plain_payload_test
