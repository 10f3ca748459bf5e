#include "live_objects.h"

namespace canopy {
namespace {
constexpr size_t kInitialSlots = 64;
constexpr uint64_t kFibonacciMultiplier = 0x9e3779b97f4a7c15ULL;  // 2^64 / golden ratio
constexpr int kShardBits = 4;                                     // log2(kShardCount)
constexpr int kFoldShift = 32;

// Where a key's probe starts: the product's high bits folded into its low ones
// (the low bits of a product see only the low bits of the address).
size_t Home(uint64_t hash, size_t mask) { return static_cast<size_t>(hash ^ (hash >> kFoldShift)) & mask; }
}  // namespace

uint64_t LiveObjects::Hash(uintptr_t key) { return static_cast<uint64_t>(key) * kFibonacciMultiplier; }

LiveObjects::Shard& LiveObjects::ShardOf(uint64_t hash) {
  static_assert(kShardCount == size_t{1} << kShardBits);
  return shards_[hash >> (64 - kShardBits)];  // the top bits pick the shard, the low ones the slot
}

size_t LiveObjects::Shard::Find(uintptr_t key) const {
  const size_t mask = slots.size() - 1;
  size_t i = Home(Hash(key), mask);
  while (slots[i] != 0 && slots[i] != key) i = (i + 1) & mask;
  return i;
}

void LiveObjects::Shard::Grow() {
  std::vector<uintptr_t> old = std::move(slots);
  slots.assign(old.empty() ? kInitialSlots : old.size() * 2, 0);
  for (uintptr_t key : old) {
    if (key != 0) slots[Find(key)] = key;
  }
}

void LiveObjects::Add(const void* object) {
  const auto key = reinterpret_cast<uintptr_t>(object);
  if (key == 0) return;
  Shard& shard = ShardOf(Hash(key));
  std::lock_guard lock(shard.mutex);
  if (2 * (shard.count + 1) > shard.slots.size()) shard.Grow();  // at most half full
  const size_t i = shard.Find(key);
  if (shard.slots[i] == 0) {
    shard.slots[i] = key;
    ++shard.count;
  }
}

bool LiveObjects::Remove(const void* object) {
  const auto key = reinterpret_cast<uintptr_t>(object);
  if (key == 0) return false;
  Shard& shard = ShardOf(Hash(key));
  std::lock_guard lock(shard.mutex);
  if (shard.slots.empty()) return false;
  size_t hole = shard.Find(key);
  if (shard.slots[hole] == 0) return false;
  // Backward-shift deletion: later keys of the probe run move into the hole,
  // so lookups never need tombstones.
  const size_t mask = shard.slots.size() - 1;
  for (size_t next = (hole + 1) & mask; shard.slots[next] != 0; next = (next + 1) & mask) {
    const size_t home = Home(Hash(shard.slots[next]), mask);
    // Move it unless its home lies cyclically in (hole, next].
    const bool home_after_hole = ((next - home) & mask) < ((next - hole) & mask);
    if (!home_after_hole) {
      shard.slots[hole] = shard.slots[next];
      hole = next;
    }
  }
  shard.slots[hole] = 0;
  --shard.count;
  return true;
}

bool LiveObjects::Contains(const void* object) {
  return WhileLive(object, [] {});
}

LiveObjects& LiveTensors() {
  static auto* tensors = new LiveObjects();
  return *tensors;
}

LiveObjects& LiveTensorLists() {
  static auto* lists = new LiveObjects();
  return *lists;
}

LiveObjects& LiveScalars() {
  static auto* scalars = new LiveObjects();
  return *scalars;
}

LiveObjects& LiveScalarLists() {
  static auto* lists = new LiveObjects();
  return *lists;
}

LiveObjects& LiveIntArrays() {
  static auto* arrays = new LiveObjects();
  return *arrays;
}

LiveObjects& LiveFloatArrays() {
  static auto* arrays = new LiveObjects();
  return *arrays;
}

LiveObjects& LiveBoolArrays() {
  static auto* arrays = new LiveObjects();
  return *arrays;
}

}  // namespace canopy
