#include "caching_allocator.h"

#include "error_message.h"
#include "event.h"
#include "stream.h"

namespace canopy::runtime {

CachingAllocator& CachingAllocator::Get() {
  static auto* allocator = new CachingAllocator();
  return *allocator;
}

bool CachingAllocator::TakeCached(size_t size, const Stream& stream, Block& block) {
  auto candidate = free_.end();
  for (auto it = free_.lower_bound(size); it != free_.end() && it->first <= size * kMaxWasteFactor; ++it) {
    const Block& cached = it->second;
    if (cached.device_id != stream.device_id()) continue;
    if (cached.stream == &stream) {  // stream order already protects it
      candidate = it;
      break;
    }
    if (candidate == free_.end() && cached.freed->IsComplete(cached.generation)) candidate = it;
  }
  if (candidate == free_.end()) return false;
  block = candidate->second;
  free_.erase(candidate);
  return true;
}

void CachingAllocator::Discard(Block& block) {
  if (block.freed != nullptr) block.freed->Release();
  block.freed = nullptr;
}

aclError CachingAllocator::Allocate(void** ptr, size_t size, Stream& stream) {
  const size_t rounded = (size + kRoundingBytes - 1) / kRoundingBytes * kRoundingBytes;
  Block block;
  {
    std::lock_guard lock(mutex_);
    if (TakeCached(rounded, stream, block)) {
      Discard(block);
      block.stream = &stream;
      in_use_[block.ptr] = block;
      *ptr = block.ptr;
      return ACL_SUCCESS;
    }
  }
  void* memory = nullptr;
  aclError status = aclrtMalloc(&memory, rounded, ACL_MEM_MALLOC_HUGE_FIRST);
  if (status == ACL_ERROR_RT_MEMORY_ALLOCATION && ReleaseCached() > 0) {
    status = aclrtMalloc(&memory, rounded, ACL_MEM_MALLOC_HUGE_FIRST);
  }
  if (status != ACL_SUCCESS) return status;
  std::lock_guard lock(mutex_);
  in_use_[memory] = Block{memory, rounded, stream.device_id(), &stream, nullptr, 0};
  *ptr = memory;
  return ACL_SUCCESS;
}

aclError CachingAllocator::Free(void* ptr, Stream& stream) {
  Block block;
  {
    std::lock_guard lock(mutex_);
    auto it = in_use_.find(ptr);
    if (it == in_use_.end()) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "canopyFreeAsync: %p was not allocated by canopyMallocAsync or is already free", ptr);
    }
    block = it->second;
    in_use_.erase(it);
  }
  // The event tells other streams when this stream has passed the free.
  block.stream = &stream;
  block.freed = new Event(0);
  block.generation = block.freed->BeginRecord();
  Task record;
  record.kind = TaskKind::kEventRecord;
  record.name = "canopyFreeAsync";
  record.event = block.freed;
  record.generation = block.generation;
  block.freed->Retain();  // the task's reference
  stream.Enqueue(record);
  std::lock_guard lock(mutex_);
  free_.emplace(block.size, block);
  return ACL_SUCCESS;
}

size_t CachingAllocator::ReleaseCached() {
  size_t released = 0;
  std::lock_guard lock(mutex_);
  for (auto it = free_.begin(); it != free_.end();) {
    Block& block = it->second;
    if (!block.freed->IsComplete(block.generation)) {
      ++it;
      continue;
    }
    Discard(block);
    aclrtFree(block.ptr);
    released += block.size;
    it = free_.erase(it);
  }
  return released;
}

}  // namespace canopy::runtime
