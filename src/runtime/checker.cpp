#include "checker.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "capture.h"
#include "error_message.h"
#include "memory_registry.h"
#include "stream.h"

namespace canopy::runtime {

std::atomic<int> Checker::mode_{0};

Checker& Checker::Get() {
  static auto* checker = new Checker();
  return *checker;
}

void Checker::ConfigureFromEnvironment() {
  const char* value = std::getenv("CANOPY_CHECK");
  if (value == nullptr || *value == '\0' || std::strcmp(value, "0") == 0) return;
  SetMode(std::strcmp(value, "abort") == 0 || std::strcmp(value, "2") == 0 ? 2 : 1);
}

void Checker::Merge(Clock& into, const Clock& from) {
  for (const auto& [stream, time] : from) {
    uint64_t& mine = into[stream];
    if (time > mine) mine = time;
  }
}

aclError Checker::Report(aclError code, const std::string& message) {
  const std::string text = "canopy checker: " + message;
  SetRecentError(text);
  std::fprintf(stderr, "%s\n", text.c_str());
  if (Mode() == 2) std::abort();
  return code;
}

aclError Checker::CheckTask(const char* function, const char* op, const std::shared_ptr<Stream>& stream,
                            const MemoryAccess* accesses, size_t count) {
  // Every access must lie inside live device memory.
  for (size_t i = 0; i < count; ++i) {
    const MemoryAccess& access = accesses[i];
    if (access.bytes == 0) continue;
    const void* pointer = reinterpret_cast<const void*>(access.begin);
    if (MemoryRegistry::Get().IsDeviceRange(pointer, access.bytes)) continue;
    const auto allocation = MemoryRegistry::Get().Find(pointer, 1);
    const bool inside = allocation && allocation->Contains(access.begin, access.bytes);
    if (inside && access.host_allowed) continue;
    char message[512];
    if (inside) {
      std::snprintf(message, sizeof(message),
                    "%s (%s): argument '%s' [%p, +%zu bytes) is pinned host memory (aclrtMallocHost), not "
                    "device memory",
                    op, function, access.argument, pointer, access.bytes);
    } else if (allocation) {
      std::snprintf(message, sizeof(message),
                    "%s (%s): argument '%s' [%p, +%zu bytes) runs past the end of its %s allocation "
                    "[%#lx, +%zu bytes)",
                    op, function, access.argument, pointer, access.bytes,
                    IsPinnedHost(allocation->kind) ? "pinned host" : "device",
                    static_cast<unsigned long>(allocation->base), allocation->size);
    } else {
      std::snprintf(message, sizeof(message),
                    "%s (%s): argument '%s' [%p, +%zu bytes) is not device memory (a host pointer, freed "
                    "memory, or never allocated)",
                    op, function, access.argument, pointer, access.bytes);
    }
    return Report(ACL_ERROR_INVALID_PARAM, message);
  }
  // Captured work runs only when replayed: each replay checks it on its own stream.
  if (CaptureRegistry::Get().StashAccesses(*stream, op, accesses, count)) return ACL_SUCCESS;

  std::lock_guard lock(mutex_);
  const uint32_t id = stream->trace_id();
  Clock& clock = stream_clocks_[id];
  Merge(clock, host_clock_);  // work the host has waited for is ordered before
  const uint64_t time = ++clock[id];
  const uint64_t sequence = stream->EnqueuedCount() + 1;
  for (size_t i = 0; i < count; ++i) {
    const MemoryAccess& access = accesses[i];
    if (access.bytes == 0) continue;
    const uintptr_t end = access.begin + access.bytes;
    for (const auto& [key, earlier] : history_) {
      if (earlier.stream_id == id || earlier.end <= access.begin || end <= earlier.begin) continue;
      if (!earlier.write && !access.write) continue;
      const auto seen = clock.find(earlier.stream_id);
      if (seen != clock.end() && seen->second >= earlier.time) continue;  // ordered by an event or a sync
      char message[640];
      std::snprintf(message, sizeof(message),
                    "race: %s %s argument '%s' [%#lx, +%zu bytes) on stream #%u while %s %s argument '%s' "
                    "[%#lx, +%zu bytes) on stream #%u with no event ordering them",
                    op, access.write ? "writes" : "reads", access.argument, static_cast<unsigned long>(access.begin),
                    access.bytes, id, earlier.op, earlier.write ? "writes" : "reads", earlier.argument,
                    static_cast<unsigned long>(earlier.begin), static_cast<size_t>(earlier.end - earlier.begin),
                    earlier.stream_id);
      return Report(ACL_ERROR_INVALID_PARAM, message);
    }
  }
  for (size_t i = 0; i < count; ++i) {
    const MemoryAccess& access = accesses[i];
    if (access.bytes == 0) continue;
    const uintptr_t end = access.begin + access.bytes;
    history_[RecordKey{id, access.begin, end, access.write}] =
        Record{access.begin, end, access.write, id, time, sequence, op, access.argument, stream};
  }
  if (history_.size() > kHistoryLimit) {
    std::erase_if(history_, [](const auto& entry) {
      const auto owner = entry.second.stream.lock();
      return !owner || owner->FinishedCount() >= entry.second.sequence;
    });
  }
  return ACL_SUCCESS;
}

void Checker::OnEventRecord(const Stream& stream, const Event* event) {
  std::lock_guard lock(mutex_);
  Clock& clock = stream_clocks_[stream.trace_id()];
  Merge(clock, host_clock_);
  event_clocks_[event] = clock;
}

void Checker::OnStreamWaitEvent(const Stream& stream, const Event* event) {
  std::lock_guard lock(mutex_);
  const auto it = event_clocks_.find(event);
  if (it != event_clocks_.end()) Merge(stream_clocks_[stream.trace_id()], it->second);
}

void Checker::PruneSynchronized() {
  std::erase_if(history_, [&](const auto& entry) {
    const auto seen = host_clock_.find(entry.second.stream_id);
    return seen != host_clock_.end() && seen->second >= entry.second.time;
  });
}

void Checker::OnHostSynchronized(const Stream& stream) {
  std::lock_guard lock(mutex_);
  const auto it = stream_clocks_.find(stream.trace_id());
  if (it == stream_clocks_.end()) return;
  Merge(host_clock_, it->second);
  PruneSynchronized();
}

void Checker::OnHostSynchronized(const Event* event) {
  std::lock_guard lock(mutex_);
  const auto it = event_clocks_.find(event);
  if (it == event_clocks_.end()) return;
  Merge(host_clock_, it->second);
  PruneSynchronized();
}

void Checker::ForgetEvent(const Event* event) {
  std::lock_guard lock(mutex_);
  event_clocks_.erase(event);
}

aclError Checker::CheckFree(const char* function, uintptr_t base, size_t bytes) {
  std::lock_guard lock(mutex_);
  const uintptr_t end = base + bytes;
  for (const auto& [key, record] : history_) {
    if (record.end <= base || end <= record.begin) continue;
    const auto stream = record.stream.lock();
    if (!stream || stream->FinishedCount() >= record.sequence) continue;
    char message[512];
    std::snprintf(message, sizeof(message),
                  "use after free: %s frees [%#lx, +%zu bytes) while %s, still queued on stream #%u, %s it "
                  "through argument '%s'",
                  function, static_cast<unsigned long>(base), bytes, record.op, record.stream_id,
                  record.write ? "writes" : "reads", record.argument);
    return Report(ACL_ERROR_INVALID_PARAM, message);
  }
  // The memory is gone: what was done to it cannot race with its next owner.
  std::erase_if(history_, [&](const auto& entry) { return entry.second.begin < end && base < entry.second.end; });
  return ACL_SUCCESS;
}

}  // namespace canopy::runtime
