#include "model/sim/drive_checkpoint.h"

#include <charconv>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "model/sim/interrupt.h"
#include "model/sim/text.h"

namespace ssd {

namespace {

constexpr char kMagic[] = "ssdsim drive state";
// 2: dftl's translation-page cursor; 3: not the block FTL's per-flush
// scratch (its last op per die, set afresh by every flush); 4: the page
// FTL's per-block fields in one record; 5: dftl's map cache as its LRU
// order, not per-LPN links
constexpr uint32_t kFormat = 5;

// The walk shared by save and load, after the header.
void body(Checkpoint& c, const SimConfig& cfg, SsdDrive& drive, ContentShadow* shadow) {
  for (uint32_t m = 0; m < drive.members(); ++m)
    if (!drive.member_controller(m).checkpoint(c))
      c.fail("ftl.name=" + cfg.ftl_name + " cannot save or load its state (every built-in FTL can: page, dftl, block, bast, fast; a plug-in must implement Ftl::checkpoint)");
  c.section("host");
  bool shadowed = shadow != nullptr;
  c.value(shadowed);
  if (shadowed != (shadow != nullptr)) c.fail("content checks (check.content) differ");
  if (shadow) shadow->checkpoint(c);
  c.section("end");
  c.seal();
}

// One phase's results: its text, then the numbers.
void phase(Checkpoint& c, StatePhaseResult& r) {
  c.text(r.phase);
  c.value(r.pages_written);
  c.value(r.gc_pages_moved);
  c.value(r.trimmed_pages);
  c.value(r.background_slices);
  c.value(r.trace_records);
  c.value(r.idle_flash_s);
}

void header(Checkpoint& c, const SimConfig& cfg, std::string& state, std::vector<StatePhaseResult>& phases) {
  char magic[sizeof kMagic];
  std::memcpy(magic, kMagic, sizeof kMagic);
  c.value(magic);
  if (std::memcmp(magic, kMagic, sizeof kMagic) != 0) c.fail("not an ssdsim drive state");
  c.expect(kFormat, "format version");
  std::string saved = drive_fingerprint(cfg);
  const std::string here = saved;
  c.text(saved);
  if (saved != here) {
    // Name the first item that differs ("; "-separated).
    std::istringstream a(saved), b(here);
    std::string x, y;
    while (std::getline(a, x, ';') && std::getline(b, y, ';') && x == y) {
    }
    c.fail("saved from another drive: '" + text::printable(x) + "' there, '" + y + "' here");  // (x: the file's bytes)
  }
  c.text(state);
  uint64_t n = phases.size();
  c.value(n);
  if (n > 1000) c.fail("more than 1000 state phases");
  phases.resize(n);
  for (StatePhaseResult& r : phases) phase(c, r);
}

// The shortest text that reads back as the same double (0.3, not 0.29999999999999999).
std::string num(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace

std::string drive_fingerprint(const SimConfig& cfg) {
  const FlashGeometry& g = cfg.nand.geometry;
  const ftl::FtlParams p = ftl_params(cfg);
  std::ostringstream o;
  o << "nand " << g.channels << " ch x " << g.dies_per_channel << " dies x " << g.planes_per_die << " planes x "
    << g.blocks_per_plane << " blocks x " << g.pages_per_block << " pages x " << g.page_size << " B";
  o << "; ftl.name=" << cfg.ftl_name << "; ftl.op=" << num(p.over_provisioning) << "; ftl.gc_threshold=" << p.gc_threshold
    << "; map entry " << p.map_entry_bytes << " B; DRAM for the FTL " << p.dram_bytes << " B";
  for (const auto& [k, v] : p.options.number) o << "; " << k << "=" << num(v);
  for (const auto& [k, v] : p.options.text) o << "; " << k << "=" << v;
  o << "; controller.trim=" << cfg.trim << "; raid.members=" << cfg.raid.members << "; raid.stripe=" << cfg.raid.stripe
    << "; check.content=" << cfg.track_content << "; nand.multiplane=" << cfg.nand.multiplane
    << "; compressed page bytes=" << cfg.nand.compressed_bytes << "; map unit=" << cfg.nand.host_page();
  return o.str();
}

void save_drive_state(const SimConfig& cfg, SsdDrive& drive, ContentShadow* shadow, const std::string& state,
                      const std::vector<StatePhaseResult>& phases) {
  std::ofstream out(cfg.save_state, std::ios::binary);
  if (!out) throw CheckpointError(cfg.save_state + ": cannot open for writing");
  Checkpoint c(out, cfg.save_state);
  std::string name = state;
  std::vector<StatePhaseResult> done = phases;
  header(c, cfg, name, done);
  body(c, cfg, drive, shadow);
  if (!out.flush()) throw CheckpointError(cfg.save_state + ": write failed");
  // Saved: a signal that ends the process from here on leaves it (main.cpp
  // made it removable while it was empty or half-written).
  remove_if_forced(kForcedState, "");
}

std::vector<StatePhaseResult> load_drive_state(const SimConfig& cfg, SsdDrive& drive, ContentShadow* shadow,
                                               std::string& state) {
  // (Options::build() refused a directory or a file it could not open; the
  // file may have gone since.)
  std::ifstream in(cfg.load_state, std::ios::binary);
  if (!in) throw CheckpointError(cfg.load_state + ": cannot open (" + std::strerror(errno) + ")");
  Checkpoint c(in, cfg.load_state);
  std::vector<StatePhaseResult> phases;
  header(c, cfg, state, phases);
  body(c, cfg, drive, shadow);
  if (in.peek() != std::char_traits<char>::eof()) c.fail("data after the end");
  // A damaged file must not start a run: every FTL checks its own invariants.
  for (uint32_t m = 0; m < drive.members(); ++m) {
    try {
      drive.member_controller(m).ftl().check_consistency();
    } catch (const std::logic_error& e) {
      c.fail(e.what());
    }
  }
  return phases;
}

}  // namespace ssd
