#include "model/host/host.h"

#include <algorithm>
#include <string>

#include "model/host/content_shadow.h"
#include "model/sim/sanitizer_stack.h"

namespace ssd {

using ssdtlm::HostCommand;
using ssdtlm::HostOp;

const char* to_string(StopReason r) {
  switch (r) {
    case StopReason::SourceDone: return "workload done";
    case StopReason::Runtime: return "workload.runtime reached";
    case StopReason::TimeLimit: return "simulated time limit reached";
    case StopReason::Error: return "error";
    case StopReason::PowerCut: return "power cut";
    case StopReason::Interrupted: return "interrupted";
  }
  return "?";
}

Host::Host(sc_core::sc_module_name name, IoSource& source, uint32_t iodepth, sc_time runtime, ContentShadow* shadow,
           const HostConfig& hc)
    : Host(name, std::vector<HostStream>{HostStream{&source, iodepth, runtime}}, shadow, hc) {}

Host::Host(sc_core::sc_module_name name, const std::vector<HostStream>& streams, ContentShadow* shadow,
           const HostConfig& hc)
    : sc_module(name), socket("socket"), streams_(streams), shadow_(shadow), hc_(hc) {
  free_tags_ = hc_.ncq_depth >= 32 ? UINT32_MAX : (1u << hc_.ncq_depth) - 1;
  uint32_t slot_id = 0;
  for (uint32_t s = 0; s < streams_.size(); ++s)
    for (uint32_t i = 0; i < streams_[s].iodepth; ++i, ++slot_id)
      ++running_slots_, sc_core::sc_spawn([this, s] { slot(s); }, ("host_slot_" + std::to_string(slot_id)).c_str());
}

void Host::host_cpu(const sc_time& cost) {
  if (cost == sc_core::SC_ZERO_TIME) return;
  const sc_time now = ssdtlm::sim_time();
  host_cpu_.retire(now);
  const sc_time start = host_cpu_.book(now, cost);
  sc_core::wait(start + cost - now);
}

void Host::stop(StopReason why) {
  // The first reason stands, but an error always wins and ends the run at
  // once; the other reasons only stop issuing, so queued commands complete.
  // (An interrupt already stopped the kernel: a second sc_stop() warns.)
  const bool stop_kernel = why == StopReason::Error && stop_ != StopReason::Error && stop_ != StopReason::Interrupted;
  if (stop_ == StopReason::SourceDone || why == StopReason::Error) stop_ = why;
  if (stop_kernel) sc_core::sc_stop();
}

void Host::slot(uint32_t stream) {
  const ProcessStack stack;  // (sanitizer builds: the content check and firmware errors throw here)
  tlm::tlm_generic_payload trans;
  HostCommand cmd;
  trans.set_extension(&cmd);
  // The payload deletes its extensions when it dies; `cmd` lives on this
  // stack, so detach it on every way out, unwinding included.
  struct Detach {
    tlm::tlm_generic_payload& t;
    HostCommand& c;
    ~Detach() { t.clear_extension(&c); }
  } detach{trans, cmd};
  HostRequest req;
  TagWaiter me;  // this slot's place in the host queue
  try {
    while (serve(stream, trans, cmd, req, me, stack)) {
    }
  } catch (const sc_core::sc_unwind_exception&) {
    throw;  // the kernel killing this thread: let it
  } catch (...) {
    if (!failure_) failure_ = std::current_exception();
    stop(StopReason::Error);
  }
  if (--running_slots_ == 0 && finished_) finished_();
}

bool Host::serve(uint32_t stream, tlm::tlm_generic_payload& trans, HostCommand& cmd, HostRequest& req,
                 TagWaiter& me, const ProcessStack& stack) {
  if (stop_ == StopReason::Interrupted) return false;  // the kernel stops at this slot's next wait: issue nothing
  while (flushing_) sc_core::wait(flush_done_);
  sc_time now = ssdtlm::sim_time();
  const sc_time runtime = streams_[stream].runtime;
  if (runtime != sc_core::SC_ZERO_TIME && now >= runtime) {
    stop(StopReason::Runtime);
    return false;
  }
  if (now.to_seconds() >= kTimeLimitSeconds) {
    stop(StopReason::TimeLimit);
    return false;
  }
  if (!streams_[stream].source->next(req, now)) return false;
  ++outstanding_;
  // Non-queued FLUSH: from the moment the host takes it, no slot takes
  // another request until it completes.
  if (req.op == HostOp::Flush) flushing_ = true;
  const sc_time arrival = req.timed ? req.arrival : now;
  if (arrival > now) {
    sc_core::wait(arrival - now);
    now = arrival;
  }
  uint32_t tag = 0;  // FLUSH, non-queued, takes none: the queue has drained
  if (req.op == HostOp::Flush) {
    while (outstanding_ > 1) sc_core::wait(idle_);  // the queue drains first
  } else {
    if (free_tags_ != 0 && tag_queue_.empty()) {
      tag = uint32_t(__builtin_ctz(free_tags_));  // the lowest free tag
      free_tags_ &= free_tags_ - 1;
    } else {  // beyond NCQ: wait in the host queue, first come first served
      tag_queue_.push_back(&me);
      sc_core::wait(me.handed);
      tag = me.tag;
    }
  }
  now = ssdtlm::sim_time();  // the command leaves the host queue
  host_cpu(hc_.cmd_overhead);
  // A fresh command, but its vectors keep their memory: assigning a new
  // HostCommand would free and reallocate them on every IO.
  std::vector<HostCommand::DataReady> ready = std::move(cmd.ready), arrived = std::move(cmd.arrived);
  std::vector<ssdtlm::PageData> content = std::move(cmd.content);
  cmd = HostCommand{};
  ready.clear(), arrived.clear(), content.clear();
  cmd.ready = std::move(ready), cmd.arrived = std::move(arrived), cmd.content = std::move(content);
  cmd.op = req.op;
  cmd.offset = req.offset;
  cmd.bytes = req.bytes;
  cmd.ncq_tag = tag;
  if (shadow_ && req.op == HostOp::Write) cmd.data_tag = shadow_->next_tag();
  trans.set_command(req.op == HostOp::Read    ? tlm::TLM_READ_COMMAND
                    : req.op == HostOp::Write ? tlm::TLM_WRITE_COMMAND
                                              : tlm::TLM_IGNORE_COMMAND);
  trans.set_address(req.offset);
  trans.set_data_length(static_cast<unsigned>(std::min<uint64_t>(req.bytes, UINT32_MAX)));
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = sc_core::SC_ZERO_TIME;
  stack.resync();  // the drive and the content check may throw; nothing waits until after the check
  socket->b_transport(trans, delay);
  // The drive applied the command when it accepted it: the shadow follows
  // at once, before any later command can be issued.
  if (shadow_ && trans.is_response_ok()) {
    if (req.op == HostOp::Write) shadow_->wrote(req.offset, req.bytes, cmd.data_tag);
    else if (req.op == HostOp::Trim && !cmd.ignored) shadow_->trimmed(req.offset, req.bytes);
    else if (req.op == HostOp::Read) shadow_->check_read(req.offset, req.bytes, cmd.content);
  }
  sc_core::wait(delay);
  while (cmd.postponed != sc_core::SC_ZERO_TIME) {  // nand.suspend moved the completion (more than once, maybe)
    const sc_time more = cmd.postponed;
    cmd.postponed = sc_core::SC_ZERO_TIME;
    sc_core::wait(more);
  }
  if (req.op != HostOp::Flush) {  // the drive's completion frees the tag
    if (tag_queue_.empty()) {
      free_tags_ |= 1u << tag;
    } else {
      TagWaiter* next = tag_queue_.front();
      tag_queue_.pop_front();
      next->tag = tag;
      next->handed.notify();
    }
  }
  host_cpu(hc_.irq_overhead);
  const sc_time done = ssdtlm::sim_time();
  if (!trans.is_response_ok()) ++errors_;
  if (done > last_completion_) last_completion_ = done;
  ++completed_;
  OpStats& s = stats_[size_t(req.op)];
  s.lat.add(ssdtlm::to_ns(done - arrival));
  s.clat.add(ssdtlm::to_ns(done - now));
  s.slat.add(ssdtlm::to_ns(now - arrival));
  s.bytes += req.bytes;
  if (observer_) observer_(IoCompletion{req, arrival, now, done, stream, cmd.data_tag});
  --outstanding_;
  if (req.op == HostOp::Flush) {
    flushing_ = false;
    flush_done_.notify();
  } else if (flushing_) {
    idle_.notify();
  }
  return true;
}

}  // namespace ssd
