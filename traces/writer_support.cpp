#include "traces/writer_support.h"

#include <cerrno>
#include <cstring>

namespace traces::detail {

OutputFile::OutputFile(const std::string& path) : path_(path) {
  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) throw TraceError(path, "", std::string("cannot create: ") + std::strerror(errno));
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
}

OutputFile::~OutputFile() {
  if (f_) std::fclose(f_);  // errors are only reported by an explicit close()
}

void OutputFile::write(std::string_view bytes) {
  if (bytes.empty()) return;
  if (!f_) throw TraceError(path_, "", "write after close");
  if (std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size())
    throw TraceError(path_, "", std::string("write error: ") + std::strerror(errno));
}

void OutputFile::close() {
  if (!f_) return;
  bool ok = std::fflush(f_) == 0;
  int err = errno;
  ok = (std::fclose(f_) == 0) && ok;
  f_ = nullptr;
  if (!ok) throw TraceError(path_, "", std::string("write error: ") + std::strerror(err));
}

void unrepresentable(const std::string& path, uint64_t index, const std::string& what) {
  throw TraceError(path, "record " + std::to_string(index), what);
}

void TextTraceWriter::require_read_write(const TraceRecord& rec, const char* format) const {
  if (rec.op != TraceOp::Read && rec.op != TraceOp::Write)
    unrepresentable(out_.path(), index_, std::string(format) + " has no " + to_string(rec.op) + " requests");
}

void TextTraceWriter::require_aligned(const TraceRecord& rec, uint64_t sector, const char* format) const {
  if (rec.offset % sector != 0 || rec.bytes % sector != 0)
    unrepresentable(out_.path(), index_,
                    std::string(format) + " counts " + std::to_string(sector) +
                        "-byte sectors: offset " + std::to_string(rec.offset) + " / size " +
                        std::to_string(rec.bytes) + " not aligned");
}

}  // namespace traces::detail
