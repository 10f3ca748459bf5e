// Checker mode (CANOPY_CHECK=1, or canopySetCheckMode): a compute-sanitizer
// for aclnn programs, built on the allocation registry. It reports
//  * tensors, workspaces and copies outside live device memory (a host pointer
//    where device memory is required, an out-of-bounds view),
//  * memory freed while queued work still uses it,
//  * races: two streams touching overlapping memory, at least one writing, with
//    no event (or host synchronisation) ordering them — vector clocks over
//    stream tasks, event records and waits.
// Reports set aclGetRecentErrMsg, fail the call that revealed them and go to
// stderr; CANOPY_CHECK=abort (mode 2) aborts at the first.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "acl/acl.h"

namespace canopy::runtime {

class Event;
class Stream;

struct MemoryAccess {
  uintptr_t begin = 0;
  size_t bytes = 0;
  bool write = false;
  const char* argument = "";
  bool host_allowed = false;  // pinned host memory is fine too (memsets, copies' host side)
};

class Checker {
 public:
  static Checker& Get();
  static bool Enabled() { return mode_.load(std::memory_order_relaxed) != 0; }
  static void SetMode(int mode) { mode_.store(mode, std::memory_order_relaxed); }
  static int Mode() { return mode_.load(std::memory_order_relaxed); }
  static void ConfigureFromEnvironment();

  // Before a task with these accesses is enqueued on `stream`.
  aclError CheckTask(const char* function, const char* op, const std::shared_ptr<Stream>& stream,
                     const MemoryAccess* accesses, size_t count);
  // Ordering edges.
  void OnEventRecord(const Stream& stream, const Event* event);
  void OnStreamWaitEvent(const Stream& stream, const Event* event);
  void OnHostSynchronized(const Stream& stream);
  void OnHostSynchronized(const Event* event);
  // aclrtFree / aclrtFreeHost of [base, base + bytes).
  aclError CheckFree(const char* function, uintptr_t base, size_t bytes);
  // Forgets a destroyed event's clock.
  void ForgetEvent(const Event* event);

 private:
  using Clock = std::unordered_map<uint32_t, uint64_t>;  // stream trace id -> tasks seen
  struct Record {
    uintptr_t begin;
    uintptr_t end;
    bool write;
    uint32_t stream_id;
    uint64_t time;      // the stream's own clock value for this task
    uint64_t sequence;  // the stream's enqueue count once this task was queued
    const char* op;
    const char* argument;
    std::weak_ptr<Stream> stream;
  };
  // One record per (stream, range, direction): a newer access of the same kind
  // by the same stream supersedes the older, which stream order puts before it.
  struct RecordKey {
    uint32_t stream_id;
    uintptr_t begin;
    uintptr_t end;
    bool write;
    bool operator==(const RecordKey&) const = default;
  };
  struct RecordKeyHash {
    size_t operator()(const RecordKey& k) const {
      return std::hash<uintptr_t>()(k.begin) * 31 + std::hash<uintptr_t>()(k.end) * 7 + k.stream_id * 2 + k.write;
    }
  };
  // Beyond this many live records, those whose task has finished are dropped
  // (a race with them can then go unseen; the host normally syncs long before).
  static constexpr size_t kHistoryLimit = 65536;

  Checker() = default;
  static void Merge(Clock& into, const Clock& from);
  aclError Report(aclError code, const std::string& message);

  static std::atomic<int> mode_;
  std::mutex mutex_;
  std::unordered_map<uint32_t, Clock> stream_clocks_;
  std::unordered_map<const Event*, Clock> event_clocks_;
  Clock host_clock_;
  std::unordered_map<RecordKey, Record, RecordKeyHash> history_;
  // Drops records every future task is ordered after (the host has waited for them).
  void PruneSynchronized();
};

}  // namespace canopy::runtime
