#pragma once
// An IoSource of requests given up front, each with its own arrival time
// (open loop): for exact-timing tests that need idle gaps or a command at a
// chosen instant.
#include <string>
#include <utility>
#include <vector>

#include "model/host/io_source.h"

namespace ssdtest {

class TimedRequests : public ssd::IoSource {
 public:
  explicit TimedRequests(std::vector<ssd::HostRequest> r) : reqs_(std::move(r)) {}
  bool next(ssd::HostRequest& req, const sc_core::sc_time&) override {
    if (i_ == reqs_.size()) return false;
    req = reqs_[i_++];
    return true;
  }
  std::string describe() const override { return "timed test requests"; }

 private:
  std::vector<ssd::HostRequest> reqs_;
  size_t i_ = 0;
};

// 4 KiB writes of `lpns`, in turn, one every `gap_ps` from time 0.
inline std::vector<ssd::HostRequest> writes_apart(const std::vector<uint64_t>& lpns, double gap_ps) {
  std::vector<ssd::HostRequest> reqs;
  for (size_t i = 0; i < lpns.size(); ++i) {
    ssd::HostRequest q;
    q.op = ssdtlm::HostOp::Write, q.offset = lpns[i] * 4096, q.bytes = 4096, q.timed = true;
    q.arrival = sc_core::sc_time(double(i) * gap_ps, sc_core::SC_PS);
    reqs.push_back(q);
  }
  return reqs;
}

}  // namespace ssdtest
