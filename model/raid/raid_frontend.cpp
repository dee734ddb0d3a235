#include "model/raid/raid_frontend.h"

#include <algorithm>

#include "tlm/ssd_protocol.h"

namespace ssd {

using ssdtlm::HostCommand;
using ssdtlm::HostOp;

RaidFrontend::RaidFrontend(sc_core::sc_module_name name, const RaidConfig& cfg, uint32_t page_size, bool suspend)
    : sc_module(name), host("host"), member("member"), cfg_(cfg), page_(page_size), subs_(cfg.members, 0),
      kept_(suspend ? size_t(cfg.members) * kNcqTags : 0),
      running_(cfg.member_queue < kNcqTags ? cfg.members : 0),
      last_issue_(running_.size(), sc_core::SC_ZERO_TIME) {
  host.register_b_transport(this, &RaidFrontend::b_transport);
}

void RaidFrontend::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  HostCommand& cmd = *trans.get_extension<HostCommand>();
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time start = now + delay + cfg_.cmd_overhead;  // the chip decodes and splits
  const uint32_t n = cfg_.members;

  // This command's stripe pieces, in host order, and each member's range.
  struct Piece {
    uint32_t m;
    uint64_t host, mem, len;
  };
  std::vector<Piece> pieces;
  std::vector<uint64_t> first(n, UINT64_MAX), last(n, 0);
  if (cmd.op == HostOp::Flush) {
    for (uint32_t m = 0; m < n; ++m) first[m] = last[m] = 0;
  } else {
    for (uint64_t o = cmd.offset, end = cmd.offset + cmd.bytes; o < end;) {
      const uint64_t len = std::min(cfg_.stripe - o % cfg_.stripe, end - o);
      const Piece p{member_of(o), o, member_offset(o), len};
      first[p.m] = std::min(first[p.m], p.mem);
      last[p.m] = std::max(last[p.m], p.mem + len);
      pieces.push_back(p);
      o += len;
    }
  }
  // One sub-command per member reached, all issued at `start`.
  std::vector<HostCommand> local(kept_.empty() ? n : 0);  // nand.suspend: kept past the call instead
  HostCommand* const sub = kept_.empty() ? local.data() : &kept_[size_t(cmd.ncq_tag % kNcqTags) * n];
  sc_core::sc_time done = start;
  bool ok = true;
  uint32_t reached = 0;
  for (uint32_t m = 0; m < n; ++m) {
    if (first[m] == UINT64_MAX) continue;
    ++reached, ++subs_[m];
    HostCommand& s = sub[m];
    s.op = cmd.op;
    s.offset = first[m];
    s.bytes = last[m] - first[m];
    s.ncq_tag = cmd.ncq_tag;
    s.data_tag = cmd.data_tag;
    s.postponable = !kept_.empty() && cmd.postponable;
    s.parent = s.postponable ? &cmd : nullptr;
    s.postponed = sc_core::SC_ZERO_TIME;
    s.ignored = false;
    tlm::tlm_generic_payload t;
    t.set_command(trans.get_command());
    t.set_address(s.offset);
    t.set_data_length(static_cast<unsigned>(std::min<uint64_t>(s.bytes, UINT32_MAX)));
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    t.set_extension(&s);
    sc_core::sc_time d = (running_.empty() ? start : member_slot(m, start)) - now;
    member[m]->b_transport(t, d);
    t.clear_extension(&s);
    ok = ok && t.is_response_ok();
    cmd.ignored = cmd.ignored || s.ignored;  // (the members share one configuration: all or none)
    s.completes = sc_core::sc_time_stamp() + d;
    if (!running_.empty()) running_[m].push_back(s.completes);
    done = std::max(done, s.completes);
  }
  cmd.completes = done;
  if (reached > 1) ++split_;
  if (cmd.op == HostOp::Read) {
    // Each host piece streams as its member has it in DRAM, at the member's
    // own granularity (a page), as a single drive's read does: the chip
    // relays Data FISes, it does not hold a piece until all of it is in.
    cmd.ready.clear();
    cmd.content.clear();
    uint64_t at_end = 0;  // host bytes of the command before this piece
    for (const Piece& p : pieces) {
      const HostCommand& s = sub[p.m];
      const uint64_t from = p.mem - s.offset, to = from + p.len;
      sc_core::sc_time at = start;
      uint64_t begin = 0;
      for (const auto& r : s.ready) {
        if (r.end > from && begin < to) {
          at = std::max(start, r.at);
          cmd.ready.push_back({at_end + std::min(r.end, to) - from, at});
        }
        begin = r.end;
      }
      at_end += p.len;
      if (cmd.ready.empty() || cmd.ready.back().end < at_end) cmd.ready.push_back({at_end, at});  // (a member that said less)
    }
    // What each host page held (content checks), in host order, as host LPNs.
    if (!pieces.empty() && !sub[pieces.front().m].content.empty())
      for (uint64_t l = cmd.offset / page_, end = (cmd.offset + cmd.bytes - 1) / page_; l <= end; ++l) {
        const uint32_t m = member_of(l * page_);
        const HostCommand& s = sub[m];
        ssdtlm::PageData d = s.content[member_offset(l * page_) / page_ - s.offset / page_];
        if (d.lpn != ssdtlm::PageData::kUnmapped) d.lpn = host_offset(m, d.lpn * page_) / page_;
        cmd.content.push_back(d);
      }
  }
  delay = done - sc_core::sc_time_stamp();
  trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE);
}

sc_core::sc_time RaidFrontend::member_slot(uint32_t m, const sc_core::sc_time& at) {
  // In order: not before the one held before it went. From there, every
  // sub-command still running was issued at or before that time, so the
  // slot is free once all but member_queue - 1 of them have completed.
  // (Those that end by the slot found are forgotten by the next call, which
  // starts no earlier.)
  sc_core::sc_time t = std::max(at, last_issue_[m]);
  std::vector<sc_core::sc_time>& run = running_[m];
  run.erase(std::remove_if(run.begin(), run.end(), [&t](const sc_core::sc_time& c) { return c <= t; }), run.end());
  if (run.size() >= cfg_.member_queue) {
    const size_t k = run.size() - cfg_.member_queue;  // the (k + 1)-th completion frees the slot
    std::nth_element(run.begin(), run.begin() + std::ptrdiff_t(k), run.end());
    t = run[k];
  }
  last_issue_[m] = t;
  return t;
}

}  // namespace ssd
