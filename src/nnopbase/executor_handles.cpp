#include "executor_handles.h"

#include "executor.h"

namespace canopy {
namespace {

// A handle: tag | generation | index | 3 zero bits. The tag makes it a
// non-canonical x86-64 address (a client that dereferences one faults at once)
// and tells a handle from stray pointers; the zero bits keep it pointer-aligned.
constexpr int kAlignBits = 3;
constexpr int kIndexBits = 20;  // at most 2^20 executors live at once
constexpr int kGenerationShift = kAlignBits + kIndexBits;
constexpr int kTagShift = 56;
constexpr uint64_t kTag = 0xce;
constexpr uint64_t kIndexMask = (uint64_t{1} << kIndexBits) - 1;
constexpr uint64_t kGenerationMask = (uint64_t{1} << (kTagShift - kGenerationShift)) - 1;
constexpr uint64_t kAlignMask = (uint64_t{1} << kAlignBits) - 1;
constexpr size_t kMaxEntries = size_t{1} << kIndexBits;
// An entry is reused only once this many are free (the table grows instead),
// so an entry's 2^33 generations last for 2^43 executors: a stale handle is
// never taken for a newer executor in any run that could exist.
constexpr size_t kMinFreeBeforeReuse = 1024;

constexpr const char* kNotAHandle = "is not an executor handle from a phase-1 call";
constexpr const char* kNotLive =
    "is no longer live: a non-repeatable executor is freed by its phase 2, a repeatable one by "
    "aclDestroyAclOpExecutor";

aclOpExecutor* Encode(uint32_t index, uint64_t generation) {
  const uint64_t value =
      (kTag << kTagShift) | ((generation & kGenerationMask) << kGenerationShift) | (uint64_t{index} << kAlignBits);
  return reinterpret_cast<aclOpExecutor*>(value);  // a handle, never dereferenced
}

}  // namespace

ExecutorHandles& ExecutorHandles::Get() {
  static auto* handles = new ExecutorHandles();  // never destroyed: tasks may release executors after main()
  return *handles;
}

aclOpExecutor* ExecutorHandles::Publish(aclOpExecutor* executor) {
  std::lock_guard lock(mutex_);
  uint32_t index = 0;
  if (free_.size() >= kMinFreeBeforeReuse || (entries_.size() >= kMaxEntries && !free_.empty())) {
    index = free_.front();
    free_.pop_front();
  } else if (entries_.size() < kMaxEntries) {
    index = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back();
  } else {
    return nullptr;
  }
  entries_[index].executor = executor;
  return Encode(index, entries_[index].generation);
}

ExecutorHandles::Entry* ExecutorHandles::FindLocked(aclOpExecutor* handle, const char** why) {
  const auto value = reinterpret_cast<uint64_t>(handle);
  const uint64_t index = (value >> kAlignBits) & kIndexMask;
  if ((value >> kTagShift) != kTag || (value & kAlignMask) != 0 || index >= entries_.size()) {
    *why = kNotAHandle;
    return nullptr;
  }
  Entry& entry = entries_[index];
  if (entry.executor == nullptr ||
      (entry.generation & kGenerationMask) != ((value >> kGenerationShift) & kGenerationMask)) {
    *why = kNotLive;
    return nullptr;
  }
  return &entry;
}

void ExecutorHandles::RetireLocked(uint32_t index) {
  entries_[index].executor = nullptr;
  ++entries_[index].generation;
  free_.push_back(index);
}

aclOpExecutor* ExecutorHandles::Retire(aclOpExecutor* handle, const char** why) {
  std::lock_guard lock(mutex_);
  Entry* entry = FindLocked(handle, why);
  if (entry == nullptr) return nullptr;
  aclOpExecutor* executor = entry->executor;
  RetireLocked(static_cast<uint32_t>(entry - entries_.data()));
  return executor;
}

aclOpExecutor* ExecutorHandles::Borrow(aclOpExecutor* handle, const char** why) {
  std::lock_guard lock(mutex_);
  Entry* entry = FindLocked(handle, why);
  if (entry == nullptr) return nullptr;
  entry->executor->references.fetch_add(1, std::memory_order_relaxed);
  return entry->executor;
}

aclOpExecutor* ExecutorHandles::LaunchOrBorrow(aclOpExecutor* handle, bool* retired, const char** why) {
  std::lock_guard lock(mutex_);
  Entry* entry = FindLocked(handle, why);
  if (entry == nullptr) return nullptr;
  aclOpExecutor* executor = entry->executor;
  *retired = !executor->repeatable;
  if (*retired) {
    RetireLocked(static_cast<uint32_t>(entry - entries_.data()));
  } else {
    executor->references.fetch_add(1, std::memory_order_relaxed);
  }
  return executor;
}

bool ExecutorHandles::SetRepeatable(aclOpExecutor* handle, const char** why) {
  std::lock_guard lock(mutex_);
  Entry* entry = FindLocked(handle, why);
  if (entry == nullptr) return false;
  entry->executor->repeatable = true;  // read under mutex_ too (LaunchOrBorrow)
  return true;
}

}  // namespace canopy
