#include "tlm/ssd_protocol.h"

namespace ssdtlm {

const char* to_string(HostOp op) {
  switch (op) {
    case HostOp::Read: return "read";
    case HostOp::Write: return "write";
    case HostOp::Trim: return "trim";
    case HostOp::Flush: return "flush";
  }
  return "?";
}

}  // namespace ssdtlm
