#include "memory_registry.h"

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
  const uintptr_t end = begin + (bytes == 0 ? 1 : bytes);
  std::shared_lock lock(mutex_);
  auto it = allocations_.upper_bound(begin);
  if (it == allocations_.begin()) return false;
  --it;
  // A range may run across virtual-memory mappings that sit back to back.
  while (it != allocations_.end() && it->second.kind != MemoryKind::kHost && it->first <= begin &&
         begin < it->first + it->second.size) {
    const uintptr_t allocation_end = it->first + it->second.size;
    if (end <= allocation_end) return true;
    if (it->second.kind != MemoryKind::kMapped) return false;
    begin = allocation_end;
    ++it;
  }
  return false;
}

size_t MemoryRegistry::Count() const {
  std::shared_lock lock(mutex_);
  return allocations_.size();
}

}  // namespace canopy::runtime
