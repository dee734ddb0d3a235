#pragma once
// blktrace binary traces: the per-CPU files `blktrace -d DEV` writes
// (NAME.blktrace.0, NAME.blktrace.1, ...) or one merged file (`blkparse -d`).
//
// Input path: a single file (merged or one per-CPU file), a directory holding
// the NAME.blktrace.N files of one NAME, or a NAME prefix. Several files are
// merged by time with a k-way merge holding one record per file, so memory
// does not grow with the trace.
//
// Record: struct blk_io_trace (48 bytes, BlkIoTrace below) followed by
// pdu_len bytes of payload, which are skipped by reading through them.
// Byte order is detected per file from the magic; big-endian files (traced
// on a big-endian host) are swapped. Version: 7 only, blkparse's
// SUPPORTED_VERSION; 8 (blk_io_trace2, 64-bit action) has another layout.
//
// action = __BLK_TA_* code in the low 16 bits (bit 8: a cgroup id is in the
// pdu) | BLK_TC_* categories << 16. The arrival action (Q; D with
// ReaderOptions::Arrival::Issue) becomes a record. Counted in
// stats().ignored: other actions ("blktrace action C"), notes (NOTIFY
// category: "blktrace note process" etc.), PC (SCSI passthrough) requests
// and zero-length requests without FLUSH.
// Op: DISCARD -> Discard; no bytes and FLUSH -> Flush; WRITE -> Write (also
// with FLUSH/FUA and data); other with bytes -> Read.
// offset = sector * 512 (the block layer counts 512-byte sectors whatever
// the device block size); device = the record's dev_t (major << 20 | minor).
//
// Time: ns, relative to the first record returned. Within one file the
// events must not go backwards; notes are exempt because `blkparse -d`
// keeps their absolute time while rebasing the events.
//
// Errors (TraceError "FILE: byte offset N: ..."): truncated record, bad
// magic, unsupported version, time going backwards, sector out of range.
// With skip_bad a backwards or out-of-range event is skipped; after a bad
// magic, bad version or a pdu running past the end of the file the next
// record boundary is unknown, so the reader counts one bad record and scans
// forward byte by byte to the next valid header (magic and version), the
// bytes passed over counted in stats().resync_bytes.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/reader_support.h"
#include "traces/writer_support.h"

namespace traces::detail {

// Constants from blktrace's blktrace_api.h (= the kernel's uapi header).
namespace blk {
constexpr uint32_t kMagic = 0x65617400;  // "eat\0" << 8 | version
constexpr uint32_t kVersion = 7;
constexpr uint32_t kRecordSize = 48;
constexpr uint32_t kCategoryShift = 16;  // BLK_TC_SHIFT

// BLK_TC_*: categories, stored as action bits 16..31.
enum Category : uint32_t {
  kTcRead = 1u << 0, kTcWrite = 1u << 1, kTcFlush = 1u << 2, kTcSync = 1u << 3,
  kTcQueue = 1u << 4, kTcRequeue = 1u << 5, kTcIssue = 1u << 6, kTcComplete = 1u << 7,
  kTcFs = 1u << 8, kTcPc = 1u << 9, kTcNotify = 1u << 10, kTcAhead = 1u << 11,
  kTcMeta = 1u << 12, kTcDiscard = 1u << 13, kTcDrvData = 1u << 14, kTcFua = 1u << 15,
};
constexpr uint32_t category(uint32_t tc) { return tc << kCategoryShift; }

// __BLK_TA_*: the action code in bits 0..15.
enum Action : uint32_t {
  kTaQueue = 1, kTaBackmerge, kTaFrontmerge, kTaGetrq, kTaSleeprq, kTaRequeue, kTaIssue,
  kTaComplete, kTaPlug, kTaUnplugIo, kTaUnplugTimer, kTaInsert, kTaSplit, kTaBounce,
  kTaRemap, kTaAbort, kTaDrvData, kTaLast = kTaDrvData,
};
constexpr uint32_t kTaCgroup = 1u << 8;  // __BLK_TA_CGROUP: cgroup id in the pdu

// __BLK_TN_*: note kinds (action code of a NOTIFY record).
enum Note : uint32_t { kTnProcess = 0, kTnTimestamp = 1, kTnMessage = 2 };
}  // namespace blk

// The on-disk record, in the file's byte order.
struct BlkIoTrace {
  uint32_t magic = blk::kMagic | blk::kVersion;
  uint32_t sequence = 0;
  uint64_t time = 0;    // ns
  uint64_t sector = 0;  // 512-byte units
  uint32_t bytes = 0;
  uint32_t action = 0;
  uint32_t pid = 0;
  uint32_t device = 0;
  uint32_t cpu = 0;
  uint16_t error = 0;
  uint16_t pdu_len = 0;
};

class BlktraceReader final : public TraceReader {
 public:
  BlktraceReader(const std::string& path, const ReaderOptions& opts);
  ~BlktraceReader() override;
  bool next(TraceRecord& rec) override;
  const ReaderStats& stats() const override;
  std::string format() const override { return "blktrace"; }

 private:
  struct Input;  // one file, with its next arrival event read ahead
  bool advance(Input& in);
  // A header that cannot be trusted: count it (or throw) and resynchronise.
  void resync(Input& in, uint64_t offset, const char* reason, const std::string& message);
  void bad_event(Input& in, uint64_t offset, const char* reason, const std::string& message);

  ReaderOptions opts_;
  uint32_t arrival_;  // __BLK_TA_QUEUE or __BLK_TA_ISSUE
  std::vector<std::unique_ptr<Input>> inputs_;
  std::vector<Input*> heap_;  // inputs with a head record, min-heap on (time, file)
  Input* pending_ = nullptr;  // returned its head last; refilled at the next call
  size_t primed_ = 0;  // inputs that have had their first record read
  bool have_first_ = false;
  uint64_t first_time_ = 0;
  std::array<uint64_t, blk::kTaLast + 1> ignored_actions_{};  // [0]: unknown codes
  std::array<uint64_t, 4> notes_{};                           // process, timestamp, message, other
  ReasonCounts ignored_, skipped_;
  uint64_t resync_bytes_ = 0;
  mutable ReaderStats stats_;
};

// Writes NAME.blktrace.0 for the NAME prefix `path`: a process note, then
// per record a Q event and a C event at the same time (the C for readers to
// skip). Little-endian unless big_endian. Records must be in time order,
// sector-aligned, and under 4 GiB.
class BlktraceWriter final : public TraceWriter {
 public:
  explicit BlktraceWriter(const std::string& path, bool big_endian = false);
  // The file it writes for the NAME prefix `path`.
  static std::string file_of(const std::string& path) { return path + ".blktrace.0"; }
  void write(const TraceRecord& rec) override;
  void close() override { out_.close(); }

 private:
  void put(const BlkIoTrace& t, std::string_view pdu = {});
  OutputFile out_;
  bool big_endian_;
  uint32_t sequence_ = 0;
  uint64_t index_ = 0, last_time_ = 0;
};

// The files `path` stands for (see above), per-CPU files in CPU order.
// Throws TraceError.
std::vector<std::string> blktrace_files(const std::string& path);

// Whether the first 4 bytes are a blktrace magic in either byte order.
bool has_blktrace_magic(const unsigned char* data, size_t size);

}  // namespace traces::detail
