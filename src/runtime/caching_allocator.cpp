#include "caching_allocator.h"

#include <limits>
#include <vector>

#include "capture.h"
#include "error_message.h"
#include "event.h"
#include "stream.h"

namespace canopy::runtime {

CachingAllocator& CachingAllocator::Get() {
  static auto* allocator = new CachingAllocator();
  return *allocator;
}

bool CachingAllocator::TakeCached(size_t size, const Stream& stream, bool capturing, Block& block) {
  auto candidate = free_.end();
  for (auto it = free_.lower_bound(size); it != free_.end() && it->first <= size * kMaxWasteFactor; ++it) {
    const Block& cached = it->second;
    if (cached.device_id != stream.device_id()) continue;
    // Stream order protects a block freed on this stream, unless the stream
    // captures: a replay on another stream is not ordered after the eager work
    // still to write the block, so only a free that has passed will do.
    if (cached.stream == &stream && !capturing) {
      candidate = it;
      break;
    }
    const bool passed = cached.freed == nullptr || cached.freed->IsComplete(cached.generation);
    if (candidate == free_.end() && passed) candidate = it;
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
  if (size > std::numeric_limits<size_t>::max() - kRoundingBytes) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "canopyMallocAsync: argument 'size' (%zu) is too large", size);
  }
  const size_t rounded = (size + kRoundingBytes - 1) / kRoundingBytes * kRoundingBytes;
  aclmdlRICaptureStatus capture = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  if (CaptureRegistry::Get().AnyActive()) {
    aclmdlRI model = nullptr;
    if (CaptureRegistry::Get().GetInfo(stream, &capture, &model) != ACL_SUCCESS) {
      capture = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    }
  }
  {
    std::lock_guard lock(mutex_);
    Block block;
    if (TakeCached(rounded, stream, capture != ACL_MODEL_RI_CAPTURE_STATUS_NONE, block)) {
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

void CachingAllocator::ReturnUnused(Block block) {
  std::lock_guard lock(mutex_);
  kept_by_models_.erase(block.ptr);
  Discard(block);
  block.stream = nullptr;
  free_.emplace(block.size, block);
}

aclError CachingAllocator::Free(void* ptr, Stream& stream) {
  const auto not_ours = [&] {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "canopyFreeAsync: argument 'ptr' (%p) was not allocated by canopyMallocAsync or is "
                "already free",
                ptr);
  };
  if (CaptureRegistry::Get().AnyActive()) {
    // A free during capture follows capture semantics: the captured work uses the
    // block at every replay, so it belongs to the model until the model is gone.
    Block block;
    {
      std::lock_guard lock(mutex_);
      auto it = in_use_.find(ptr);
      if (it == in_use_.end()) return not_ours();
      block = it->second;
      in_use_.erase(it);
      kept_by_models_.insert(ptr);
    }
    if (CaptureRegistry::Get().KeepUntilModelDestroyed(stream, [block] { Get().ReturnUnused(block); })) {
      return ACL_SUCCESS;
    }
    std::lock_guard lock(mutex_);
    kept_by_models_.erase(ptr);
    in_use_[ptr] = block;  // the stream does not capture: the ordinary free below
  }
  std::lock_guard lock(mutex_);
  auto it = in_use_.find(ptr);
  if (it == in_use_.end()) return not_ours();
  Block& block = it->second;
  // The block's event tells other streams when this stream has passed the free;
  // it is made once per block and recorded again at every free.
  if (block.freed == nullptr) block.freed = new Event(0);
  Task record;
  record.kind = TaskKind::kEventRecord;
  record.name = "canopyFreeAsync";
  record.event = block.freed;
  block.freed->Retain();  // the task's reference
  uint64_t generation = 0;
  if (!stream.Enqueue(record, &generation)) {
    block.freed->Release();  // a refused record takes no generation
    return Fail(ACL_ERROR_INVALID_PARAM, "canopyFreeAsync: argument 'stream' (%p) is being destroyed", stream.handle());
  }
  block.stream = &stream;
  block.generation = generation;
  free_.emplace(block.size, block);
  in_use_.erase(it);
  return ACL_SUCCESS;
}

size_t CachingAllocator::ReleaseCached() {
  size_t released = 0;
  std::vector<void*> to_free;
  {
    std::lock_guard lock(mutex_);
    for (auto it = free_.begin(); it != free_.end();) {
      Block& block = it->second;
      if (block.freed != nullptr && !block.freed->IsComplete(block.generation)) {
        ++it;
        continue;
      }
      Discard(block);
      to_free.push_back(block.ptr);
      released += block.size;
      it = free_.erase(it);
    }
  }
  for (void* ptr : to_free) aclrtFree(ptr);
  return released;
}

bool CachingAllocator::Owns(const void* ptr) {
  std::lock_guard lock(mutex_);
  if (in_use_.contains(const_cast<void*>(ptr)) || kept_by_models_.contains(const_cast<void*>(ptr))) return true;
  for (const auto& [size, block] : free_) {
    if (block.ptr == ptr) return true;
  }
  return false;
}

}  // namespace canopy::runtime
