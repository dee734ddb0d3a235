#pragma once
// RAID-0 of controllers behind one port (`raid.members` > 1), as in the
// dual-JMF602B drives of 2008: a striping chip between the SATA interface
// and N complete SSDs (controller, DRAM, NAND, each with its own FTL).
//
// Host byte offset o lies in stripe s = o / stripe, on member s mod N, at
// member offset (s / N) x stripe + o mod stripe. A host command touches one
// contiguous range on each member it reaches: each gets one sub-command,
// all issued at once after the chip's own cost (`raid.cmd_overhead`); the
// command completes when the last one does. FLUSH goes to every member.
// A member takes at most `raid.member_queue` sub-commands at once (its own
// NCQ depth; 1 for a controller without NCQ): the chip holds the others and
// issues each, in the order they came, when enough of the member's earlier
// ones have completed (as answered: a postponed write-through program of
// nand.suspend is not waited for).
// Reads stream back in host order, each page of a stripe piece when its
// member has it in DRAM, as from a single drive: the chip relays Data FISes
// and holds only what comes ahead of its turn, never a whole piece before
// forwarding it. Content checks see host LPNs (member LPNs are translated).
//
//   sata.controller ==> raid.host   raid.member[0..N-1] ==> controller.host

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <vector>

#include "model/sim/config.h"
#include "tlm/ssd_protocol.h"

namespace ssd {

class RaidFrontend : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<RaidFrontend> host;
  tlm_utils::multi_passthrough_initiator_socket<RaidFrontend> member;

  // `suspend` (nand.suspend): sub-commands outlive the call, so a member can
  // postpone a write-through write (see ssdtlm::HostCommand::parent).
  RaidFrontend(sc_core::sc_module_name name, const RaidConfig& cfg, uint32_t page_size, bool suspend = false);

  // Host capacity of N members of `member_bytes` each (whole stripes only).
  uint64_t capacity(uint64_t member_bytes) const { return member_bytes / cfg_.stripe * cfg_.stripe * cfg_.members; }
  // Where host page `lpn` lives, and back.
  uint32_t member_of(uint64_t host_offset) const { return uint32_t(host_offset / cfg_.stripe % cfg_.members); }
  uint64_t member_offset(uint64_t host_offset) const {
    return host_offset / cfg_.stripe / cfg_.members * cfg_.stripe + host_offset % cfg_.stripe;
  }
  uint64_t host_offset(uint32_t m, uint64_t member_offset) const {
    return (member_offset / cfg_.stripe * cfg_.members + m) * cfg_.stripe + member_offset % cfg_.stripe;
  }
  static constexpr uint32_t kNcqTags = 32;  // NCQ's tags (sata.ncq_depth is at most 32)
  // Sub-commands issued per member, and host commands split over several.
  const std::vector<uint64_t>& sub_commands() const { return subs_; }
  uint64_t split_commands() const { return split_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  // raid.member_queue: when a sub-command for member `m` that the chip has
  // from `at` on may go to the member (FIFO behind the ones held before it).
  sc_core::sc_time member_slot(uint32_t m, const sc_core::sc_time& at);

  RaidConfig cfg_;
  uint32_t page_;
  std::vector<uint64_t> subs_;
  // nand.suspend: one sub-command per member and NCQ tag. A tag comes back
  // only once its command has completed (postponements included), by when
  // every program of its sub-commands has ended.
  std::vector<ssdtlm::HostCommand> kept_;
  uint64_t split_ = 0;
  // raid.member_queue below NCQ's 32 only: per member, the answered
  // completions of its sub-commands that may still run, and when the last
  // one held went to it.
  std::vector<std::vector<sc_core::sc_time>> running_;
  std::vector<sc_core::sc_time> last_issue_;
};

}  // namespace ssd
