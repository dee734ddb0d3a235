// A small SystemC virtual platform on the ssdsim drive model. Its CPU-like
// initiator talks to the drive with plain TLM-2.0 generic payloads: address,
// data pointer and length, no ssdsim extension. It writes data, reads it
// back, checks the bytes (the drive keeps them: --store-data, turned on
// here) and prints the latency of each transfer.
//
// Arguments are ssdsim's options, e.g. --config .../intel-x25m-g1.ini.
// Exit status: 0 when everything read back as written, 1 if not, 2 for bad
// options, 3 for an internal error.

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <cstdio>
#include <vector>

#include "model/sim/log.h"
#include "model/sim/options.h"
#include "model/sim/ssd_drive.h"

using sc_core::sc_time;

class Cpu : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Cpu> bus;

  SC_HAS_PROCESS(Cpu);
  explicit Cpu(sc_core::sc_module_name name) : sc_module(name), bus("bus") { SC_THREAD(run); }

  unsigned failures() const { return failures_; }

 private:
  // One blocking transfer; waits the latency the drive annotated and returns it.
  sc_time transfer(tlm::tlm_command cmd, uint64_t address, std::vector<unsigned char>& buf) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(address);
    t.set_data_ptr(buf.data());
    t.set_data_length(static_cast<unsigned>(buf.size()));
    t.set_streaming_width(static_cast<unsigned>(buf.size()));
    t.set_byte_enable_ptr(nullptr);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = sc_core::SC_ZERO_TIME;
    bus->b_transport(t, delay);
    sc_core::wait(delay);
    std::printf("%-5s %7zu B at %10llu: %10.3f us\n", cmd == tlm::TLM_READ_COMMAND ? "read" : "write", buf.size(),
                static_cast<unsigned long long>(address), delay.to_seconds() * 1e6);
    if (!t.is_response_ok()) fail("the drive answered " + t.get_response_string());
    return delay;
  }

  void write(uint64_t address, std::vector<unsigned char> data) { transfer(tlm::TLM_WRITE_COMMAND, address, data); }

  // Read `want.size()` bytes at `address` and compare them with `want`.
  void expect(uint64_t address, const std::vector<unsigned char>& want) {
    std::vector<unsigned char> got(want.size(), 0xA5);  // not what the drive should return
    transfer(tlm::TLM_READ_COMMAND, address, got);
    for (size_t i = 0; i < want.size(); ++i)
      if (got[i] != want[i]) {
        fail("byte " + std::to_string(address + i) + " reads " + std::to_string(got[i]) + ", expected " +
             std::to_string(want[i]));
        return;
      }
    checked_ += want.size();
  }

  void fail(const std::string& what) {
    std::printf("  FAILED: %s\n", what.c_str());
    ++failures_;
  }

  static std::vector<unsigned char> pattern(size_t n, unsigned seed) {
    std::vector<unsigned char> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((i * 131 + seed * 17 + 1) % 251);
    return v;
  }

  void run() {
    // A 4 KiB block, written and read back.
    const auto block = pattern(4096, 1);
    write(1 << 20, block);
    expect(1 << 20, block);

    // 64 KiB at a sector- but not page-aligned address (partial first and last pages).
    const uint64_t odd = (10 << 20) + 512;
    const auto big = pattern(65536, 2);
    write(odd, big);
    expect(odd, big);

    // Never written: zeros.
    expect(100 << 20, std::vector<unsigned char>(8192, 0));

    // One sector rewritten inside the first block.
    const auto sector = pattern(512, 3);
    write((1 << 20) + 1024, sector);
    auto merged = block;
    std::copy(sector.begin(), sector.end(), merged.begin() + 1024);
    expect(1 << 20, merged);

    // 32 sequential 4 KiB writes, read back as one 128 KiB transfer.
    std::vector<unsigned char> all;
    for (unsigned i = 0; i < 32; ++i) {
      const auto piece = pattern(4096, 10 + i);
      write((20 << 20) + i * 4096ull, piece);
      all.insert(all.end(), piece.begin(), piece.end());
    }
    expect(20 << 20, all);

    std::printf("%s: %zu bytes read back as written, %u failure(s), simulated time %s\n", failures_ ? "FAILED" : "OK",
                checked_, failures_, sc_core::sc_time_stamp().to_string().c_str());
  }

  unsigned failures_ = 0;
  size_t checked_ = 0;
};

int sc_main(int argc, char* argv[]) {
  try {
    const ssd::Options opts = ssd::Options::parse(argc, argv);
    if (opts.help()) {
      std::fputs(ssd::Options::help_text().c_str(), stdout);
      return 0;
    }
    ssd::SimConfig cfg = opts.config();
    cfg.store_data = true;  // this platform reads back what it writes
    ssd::log::configure(cfg.log_level);

    ssd::SsdDrive drive("ssd", cfg);
    // The drive's state before time starts (functional, like ssdsim's --state).
    drive.controller.apply_state(cfg.state, cfg.seed);
    Cpu cpu("cpu");
    cpu.bus.bind(drive.sata.host);
    sc_core::sc_start();
    return cpu.failures() ? 1 : 0;
  } catch (const ssd::OptionError& e) {
    std::fprintf(stderr, "ssdsim_vp: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ssdsim_vp: internal error: %s\n", e.what());
    return 3;
  }
}
