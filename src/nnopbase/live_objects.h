// Which meta objects (tensors, scalars, arrays and lists) are alive. Clients hold their
// addresses and op files dereference them, so these handles cannot be
// generation-checked; the entry points that take one after phase 1 (rebinding,
// destroying) look it up here first, so that a destroyed one is an error code
// instead of a write into freed memory or a double free. (An address the heap
// has already given to a newer object counts as that object.)
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <vector>

namespace canopy {

class LiveObjects {
 public:
  void Add(const void* object);
  // False when `object` is not live (never created, or destroyed already).
  bool Remove(const void* object);
  bool Contains(const void* object);
  // Runs `write` while `object` is live, under the lock its Remove takes: a
  // destroy waits for the write, and two writers take turns. False (nothing
  // run) when it is not live.
  template <typename Write>
  bool WhileLive(const void* object, Write&& write) {
    const auto key = reinterpret_cast<uintptr_t>(object);
    if (key == 0) return false;
    Shard& shard = ShardOf(Hash(key));
    std::lock_guard lock(shard.mutex);
    if (shard.slots.empty() || shard.slots[shard.Find(key)] != key) return false;
    write();
    return true;
  }

 private:
  // Clients create and destroy descriptors around every op: an open-addressing
  // set (no allocation per object) behind one of several locks (threads that
  // create descriptors concurrently rarely meet).
  static constexpr size_t kShardCount = 16;
  static constexpr size_t kCacheLine = 64;
  struct alignas(kCacheLine) Shard {
    std::mutex mutex;
    std::vector<uintptr_t> slots;  // 0: empty; linear probing, a power of two long
    size_t count = 0;
    size_t Find(uintptr_t key) const;  // the key's slot, or the empty slot where it would go
    void Grow();
  };
  static uint64_t Hash(uintptr_t key);
  Shard& ShardOf(uint64_t hash);
  std::array<Shard, kShardCount> shards_;
};

// The registries of libnnopbase's objects; never destroyed (clients may
// destroy objects after main() returns).
LiveObjects& LiveTensors();
LiveObjects& LiveTensorLists();
LiveObjects& LiveScalars();
LiveObjects& LiveScalarLists();
LiveObjects& LiveIntArrays();
LiveObjects& LiveFloatArrays();
LiveObjects& LiveBoolArrays();

}  // namespace canopy
