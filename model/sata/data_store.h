#pragma once
// The drive's user data, kept only with `--store-data` (SimConfig::store_data)
// so that a virtual platform can run a file system on the drive and read back
// what it wrote. The timing model never needs the bytes; this is purely
// functional and lives at the SATA interface, the one place where the TLM
// payload's data pointer is visible.
//
// Sparse: a map of fixed-size chunks (the flash page size), allocated when
// first written. Bytes never written, and bytes trimmed, read as zeros (a
// drive with deterministic zeros after TRIM). A chunk that becomes all zeros
// through TRIM is freed.

#include <cstdint>
#include <map>
#include <memory>

namespace ssd {

class DataStore {
 public:
  explicit DataStore(uint32_t chunk_bytes);

  void write(uint64_t offset, const unsigned char* data, uint64_t bytes);
  void read(uint64_t offset, unsigned char* data, uint64_t bytes) const;
  // TRIM: the range reads as zeros from now on.
  void zero(uint64_t offset, uint64_t bytes);

  uint32_t chunk_bytes() const { return chunk_; }
  // Chunks currently allocated (memory use is about this times chunk_bytes()).
  size_t chunks() const { return chunks_.size(); }

 private:
  uint32_t chunk_;
  std::map<uint64_t, std::unique_ptr<unsigned char[]>> chunks_;  // chunk index -> chunk_ bytes
};

}  // namespace ssd
