#include "onednn_reordered_copies.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr size_t kAlignment = 64;  // a cache line: what oneDNN's kernels assume of their buffers

std::atomic<int64_t>& KeptBytes() {
  static std::atomic<int64_t> bytes{0};
  return bytes;
}

// Takes `bytes` of the process budget; false when it has no room.
bool Reserve(int64_t bytes) {
  int64_t kept = KeptBytes().load(std::memory_order_relaxed);
  do {
    if (kept + bytes > ReorderedCopies::kBudgetBytes) return false;
  } while (!KeptBytes().compare_exchange_weak(kept, kept + bytes, std::memory_order_relaxed));
  return true;
}

void* AlignedBytes(size_t bytes) {
  const size_t rounded = (std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

void ReorderedCopies::Copy::Free::operator()(void* p) const { std::free(p); }

ReorderedCopies::Copy::Copy(const void* source, size_t source_bytes, size_t reordered_bytes)
    : source_(source),
      source_bytes_(source_bytes),
      reordered_bytes_(reordered_bytes),
      snapshot_(static_cast<unsigned char*>(AlignedBytes(source_bytes))),
      reordered_(static_cast<unsigned char*>(AlignedBytes(reordered_bytes))) {
  std::memcpy(snapshot_.get(), source, source_bytes);
}

ReorderedCopies::Copy::~Copy() {
  KeptBytes().fetch_sub(static_cast<int64_t>(source_bytes_ + reordered_bytes_), std::memory_order_relaxed);
}

bool ReorderedCopies::Copy::Matches(const void* source) const {
  // On the engine's whole team: the comparison reads twice the weight's bytes
  // on every run, and on one thread it took a fifth of a batch-1 ResNet layer
  // (1x2048x7x7 by 512x2048x1x1) that oneDNN alone runs in 0.5 ms.
  constexpr int64_t kGrainBytes = int64_t{1} << 18;
  std::atomic<bool> same{true};
  const auto* kept = snapshot_.get();
  const auto* now = static_cast<const unsigned char*>(source);
  ParallelFor(static_cast<int64_t>(source_bytes_), kGrainBytes, [&](int64_t begin, int64_t end) {
    if (same.load(std::memory_order_relaxed) &&
        std::memcmp(kept + begin, now + begin, static_cast<size_t>(end - begin)) != 0) {
      same.store(false, std::memory_order_relaxed);
    }
  });
  return same.load();
}

ReorderedCopies::~ReorderedCopies() = default;

std::shared_ptr<const ReorderedCopies::Copy> ReorderedCopies::Find(const void* source) {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = copies_.begin(); it != copies_.end(); ++it) {
    if ((*it)->source() != source) continue;
    copies_.splice(copies_.begin(), copies_, it);
    return copies_.front();
  }
  return nullptr;
}

void ReorderedCopies::Forget(const std::shared_ptr<const Copy>& copy) {
  const std::lock_guard<std::mutex> lock(mutex_);
  copies_.remove(copy);
}

void ReorderedCopies::Keep(std::shared_ptr<const Copy> copy) {
  const std::lock_guard<std::mutex> lock(mutex_);
  copies_.remove_if([&](const std::shared_ptr<const Copy>& kept) { return kept->source() == copy->source(); });
  copies_.push_front(std::move(copy));
  if (copies_.size() > kMaxCopies) copies_.pop_back();
}

std::shared_ptr<const ReorderedCopies::Copy> ReorderedCopies::Get(
    const void* source, const std::function<void(void* from, void* to)>& reorder) {
  // Compared outside the lock: copies never change, and other runs may compare theirs meanwhile.
  std::shared_ptr<const Copy> found = Find(source);
  if (found && found->Matches(source)) return found;
  if (found) {  // stale: its bytes return to the budget (once no run holds it) before a new copy is counted
    Forget(found);
    found.reset();
  }
  if (!Reserve(static_cast<int64_t>(source_bytes_ + reordered_bytes_))) return nullptr;
  std::shared_ptr<Copy> made;
  try {
    made = std::make_shared<Copy>(source, source_bytes_, reordered_bytes_);
  } catch (...) {
    KeptBytes().fetch_sub(static_cast<int64_t>(source_bytes_ + reordered_bytes_), std::memory_order_relaxed);
    throw;
  }
  // The reorder reads the snapshot, so the copy is exactly what the snapshot says it came from.
  reorder(const_cast<void*>(made->source_bytes()), made->reordered());
  Keep(made);
  return made;
}

int64_t ReorderedCopyBytes() { return KeptBytes().load(std::memory_order_relaxed); }

}  // namespace canopy::kernels
