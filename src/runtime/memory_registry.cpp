#include "memory_registry.h"

#include <iterator>
#include <limits>
#include <mutex>

namespace canopy::runtime {

MemoryRegistry& MemoryRegistry::Get() {
  static auto* registry = new MemoryRegistry();
  return *registry;
}

void MemoryRegistry::Add(const Allocation& allocation) {
  std::unique_lock lock(mutex_);
  allocations_[allocation.base] = allocation;
}

bool MemoryRegistry::AddIfFree(const Allocation& allocation) {
  std::unique_lock lock(mutex_);
  auto next = allocations_.lower_bound(allocation.base);
  if (next != allocations_.end() && next->first - allocation.base < allocation.size) return false;
  if (next != allocations_.begin()) {
    const Allocation& previous = std::prev(next)->second;
    if (allocation.base - previous.base < previous.size) return false;
  }
  allocations_[allocation.base] = allocation;
  return true;
}

std::optional<Allocation> MemoryRegistry::Remove(const void* base, MemoryKind kind) {
  std::unique_lock lock(mutex_);
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(base));
  if (it == allocations_.end() || it->second.kind != kind) return std::nullopt;
  Allocation allocation = it->second;
  allocations_.erase(it);
  return allocation;
}

std::optional<Allocation> MemoryRegistry::Find(const void* address, size_t bytes) const {
  const auto key = reinterpret_cast<uintptr_t>(address);
  std::shared_lock lock(mutex_);
  auto it = allocations_.upper_bound(key);
  if (it == allocations_.begin()) return std::nullopt;
  --it;
  if (!it->second.Contains(key, bytes)) return std::nullopt;
  return it->second;
}

bool MemoryRegistry::IsDeviceRange(const void* address, size_t bytes) const {
  uintptr_t begin = reinterpret_cast<uintptr_t>(address);
  if (bytes == 0) bytes = 1;
  if (bytes > std::numeric_limits<uintptr_t>::max() - begin) return false;
  const uintptr_t end = begin + bytes;
  std::shared_lock lock(mutex_);
  auto it = allocations_.upper_bound(begin);
  if (it == allocations_.begin()) return false;
  --it;
  if (IsPinnedHost(it->second.kind) || !it->second.Contains(begin, 1)) return false;
  // A range may run on across virtual-memory mappings that sit back to back.
  while (true) {
    const uintptr_t allocation_end = it->first + it->second.size;
    if (end <= allocation_end) return true;
    if (it->second.kind != MemoryKind::kMapped) return false;
    ++it;
    if (it == allocations_.end() || it->first != allocation_end || it->second.kind != MemoryKind::kMapped) {
      return false;
    }
  }
}

bool MemoryRegistry::IsPinnedHostRange(const void* address, size_t bytes) const {
  const auto found = Find(address, bytes == 0 ? 1 : bytes);
  return found && IsPinnedHost(found->kind);
}

size_t MemoryRegistry::Count() const {
  std::shared_lock lock(mutex_);
  return allocations_.size();
}

}  // namespace canopy::runtime
