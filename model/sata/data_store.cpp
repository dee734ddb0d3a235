#include "model/sata/data_store.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ssd {

DataStore::DataStore(uint32_t chunk_bytes) : chunk_(chunk_bytes) {
  if (chunk_ == 0) throw std::invalid_argument("DataStore: chunk size must be greater than zero");
}

// Each operation walks the range chunk by chunk: `at` is the byte offset in
// the range, `in` the offset within the chunk, `n` the bytes of this chunk.

void DataStore::write(uint64_t offset, const unsigned char* data, uint64_t bytes) {
  for (uint64_t at = 0; at < bytes;) {
    const uint64_t pos = offset + at, index = pos / chunk_, in = pos % chunk_;
    const uint64_t n = std::min<uint64_t>(chunk_ - in, bytes - at);
    auto& c = chunks_[index];
    if (!c) c.reset(new unsigned char[chunk_]());  // value-initialised: zeros
    std::memcpy(c.get() + in, data + at, n);
    at += n;
  }
}

void DataStore::read(uint64_t offset, unsigned char* data, uint64_t bytes) const {
  for (uint64_t at = 0; at < bytes;) {
    const uint64_t pos = offset + at, index = pos / chunk_, in = pos % chunk_;
    const uint64_t n = std::min<uint64_t>(chunk_ - in, bytes - at);
    const auto it = chunks_.find(index);
    if (it == chunks_.end()) std::memset(data + at, 0, n);
    else std::memcpy(data + at, it->second.get() + in, n);
    at += n;
  }
}

void DataStore::zero(uint64_t offset, uint64_t bytes) {
  for (uint64_t at = 0; at < bytes;) {
    const uint64_t pos = offset + at, index = pos / chunk_, in = pos % chunk_;
    const uint64_t n = std::min<uint64_t>(chunk_ - in, bytes - at);
    const auto it = chunks_.find(index);
    if (it != chunks_.end()) {
      if (n == chunk_) chunks_.erase(it);  // the whole chunk: free it
      else std::memset(it->second.get() + in, 0, n);
    }
    at += n;
  }
}

}  // namespace ssd
