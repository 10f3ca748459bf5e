// Every live device allocation, pinned host allocation and mapped virtual range,
// so that a pointer handed to the API can be checked cheaply: a lookup is one
// ordered-map search under a shared lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>

namespace canopy::runtime {

enum class MemoryKind : uint8_t {
  kDevice,          // aclrtMalloc
  kHost,            // aclrtMallocHost (pinned host memory)
  kMapped,          // a physical allocation mapped into a reserved range (aclrtMapMem)
  kRegisteredHost,  // the client's host memory registered with aclrtHostRegister: pinned, never freed here
};

// Pinned host memory: copies to and from it may be queued.
inline bool IsPinnedHost(MemoryKind kind) { return kind == MemoryKind::kHost || kind == MemoryKind::kRegisteredHost; }

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;
  int32_t device_id = 0;
  MemoryKind kind = MemoryKind::kDevice;
  uint32_t epoch = 0;  // Runtime::epoch() when allocated: whose accounting it is in

  bool Contains(uintptr_t address, size_t bytes) const {
    return address >= base && bytes <= size && address - base <= size - bytes;
  }
};

class MemoryRegistry {
 public:
  static MemoryRegistry& Get();

  void Add(const Allocation& allocation);
  // Adds `allocation` unless it overlaps a live one; false when it does.
  bool AddIfFree(const Allocation& allocation);
  // Removes the allocation that starts exactly at `base` with the given kind.
  std::optional<Allocation> Remove(const void* base, MemoryKind kind);
  // The allocation containing [address, address + bytes), if any.
  std::optional<Allocation> Find(const void* address, size_t bytes = 1) const;
  // True when the range lies inside one live device-side allocation (device or
  // mapped; back-to-back mappings count as one range).
  bool IsDeviceRange(const void* address, size_t bytes) const;
  // True when the range lies inside one live aclrtMallocHost allocation.
  bool IsPinnedHostRange(const void* address, size_t bytes) const;
  size_t Count() const;

 private:
  MemoryRegistry() = default;
  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Allocation> allocations_;
};

}  // namespace canopy::runtime
