// A stream-ordered caching allocator for workspaces and temporaries. A block
// freed on a stream goes back to that stream's free list, where later work on
// the same stream may take it at once (stream order makes that safe); another
// stream may take it once an event recorded at the free has completed. Hot
// loops therefore never reach aclrtMalloc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "acl/acl.h"

namespace canopy::runtime {

class Event;
class Stream;

class CachingAllocator {
 public:
  // Sizes are rounded up to this, so similar requests share blocks.
  static constexpr size_t kRoundingBytes = 512;
  // A cached block serves requests down to 1/kMaxWasteFactor of its size.
  static constexpr size_t kMaxWasteFactor = 2;

  static CachingAllocator& Get();

  aclError Allocate(void** ptr, size_t size, Stream& stream);
  aclError Free(void* ptr, Stream& stream);
  // Frees every cached block whose free has completed; returns bytes released.
  size_t ReleaseCached();
  // True when `ptr` is a block of the pool (handed out or cached): aclrtFree must not take it.
  bool Owns(const void* ptr);

 private:
  struct Block {
    void* ptr = nullptr;
    size_t size = 0;
    int32_t device_id = 0;
    const Stream* stream = nullptr;  // the stream that last freed (or allocated) it
    Event* freed = nullptr;          // completes when that stream passes the free; null: nothing to wait for
    uint64_t generation = 0;
  };
  CachingAllocator() = default;
  bool TakeCached(size_t size, const Stream& stream, bool capturing, Block& block);
  // A block no queued work uses any more (its capture's model is gone): free for any stream.
  void ReturnUnused(Block block);
  static void Discard(Block& block);

  std::mutex mutex_;
  std::multimap<size_t, Block> free_;  // by size
  std::unordered_map<void*, Block> in_use_;
  std::unordered_set<void*> kept_by_models_;  // freed during a capture, the model not yet destroyed
};

}  // namespace canopy::runtime
