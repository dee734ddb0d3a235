#pragma once
// Storage for the FTLs' big tables (LPN -> PPN, PPN -> LPN: tens of MB,
// indexed by random page numbers). An allocation of 2 MiB or more is
// 2 MiB-aligned and asks the kernel for transparent huge pages
// (madvise(MADV_HUGEPAGE)), so a random look-up finds its translation in
// the TLB: with 4 KiB pages nearly every one misses it and walks the page
// tables, several percent of a random-IO run's wall time. Only speed
// changes: the contents, and the simulation, are those of a std::vector.
// (Kernels without transparent huge pages ignore the advice.)

#include <sys/mman.h>

#include <cstdlib>
#include <new>
#include <vector>

namespace ssd::ftl {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHugePage = size_t(2) << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return std::allocator<T>().allocate(n);
    const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (!p) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);  // advice only: a refusal changes nothing
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < kHugePage) return std::allocator<T>().deallocate(p, n);
    std::free(p);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const HugePageAllocator<U>&) const { return false; }
};

// A std::vector whose big allocations use huge pages.
template <class T>
using BigTable = std::vector<T, HugePageAllocator<T>>;

}  // namespace ssd::ftl
