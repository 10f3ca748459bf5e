// fuzz_runtime_sequence: the input is a program of runtime calls, interpreted
// one step at a time: streams and events (create, destroy, force-destroy,
// record, wait, reset, query, synchronise with and without timeouts), host
// functions and Canopy tasks, the subscribe / launch-callback / process-report
// protocol, contexts and devices, memory (malloc and free, double and foreign
// frees, the stream-ordered pool, pinned host memory), copies and fills (sync
// and async, 1-D and 2-D, every kind) on valid, stale, interior, foreign and
// null pointers, and the virtual-memory API.
//
// Handles are tracked so the harness itself never touches freed memory: a
// stale or foreign handle is only ever handed to the API, which must reject it.
// Host-side pointers of copies (which the API cannot check) are always valid
// for the bytes involved. Invariants besides "no crash, hang, leak or UB":
//  * every failing call returns a documented acl error code and leaves a message;
//  * after the program, with everything destroyed and freed, the device's free
//    memory is back to its total, and every task released exactly once.
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "canopy/canopy_runtime.h"
#include "common/fuzz_support.h"
#include "common/fuzz_values.h"

using namespace canopy::fuzz;

namespace {

constexpr int kMaxSteps = 64;
constexpr size_t kMaxLive = 12;                     // of each kind of handle
constexpr size_t kHostBytes = size_t{64} << 10;     // each pageable host buffer
constexpr size_t kMaxAllocation = size_t{1} << 20;  // ordinary aclrtMalloc sizes
constexpr size_t kGranularity = size_t{2} << 20;    // the VMM granularity Canopy reports
constexpr int32_t kShortTimeoutMs = 5;
constexpr const char* kDeviceCount = "2";  // device 1 is borrowed by programs and released after each

// ---- status checking ---------------------------------------------------------

// The acl error codes the runtime documents (acl_base_rt.h ranges).
bool IsDocumentedAclError(aclError status) {
  const auto in = [&](int low, int high) { return status >= low && status <= high; };
  return status == ACL_SUCCESS || in(100000, 100050) || in(107000, 107050) || in(200000, 200010) ||
         in(207000, 207020) || in(500000, 500010) || in(507000, 507050) || in(507899, 507910);
}

// CANOPY_FUZZ_VERBOSE=1: print every call and its status (to turn an input into a test).
bool Verbose() {
  static const bool verbose = std::getenv("CANOPY_FUZZ_VERBOSE") != nullptr;
  return verbose;
}

void Note(const char* format, ...) __attribute__((format(printf, 1, 2)));
void Note(const char* format, ...) {
  if (!Verbose()) return;
  va_list args;
  va_start(args, format);
  std::fprintf(stderr, "canopy-fuzz:   ");
  std::vfprintf(stderr, format, args);
  std::fprintf(stderr, "\n");
  va_end(args);
}

// Every call goes through here: a documented code, and a message when it failed.
aclError Check(const char* call, aclError status) {
  if (Verbose()) std::fprintf(stderr, "canopy-fuzz: %s -> %d\n", call, status);
  CANOPY_FUZZ_CHECK(IsDocumentedAclError(status), "%s returned undocumented code %d", call, status);
  if (status != ACL_SUCCESS) RequireErrorMessage(call, status);
  return status;
}
#define CALL(expr) Check(#expr, (expr))

// ---- work the streams run -----------------------------------------------------

std::atomic<uint64_t> host_functions_run{0};
std::atomic<uint64_t> callbacks_run{0};
std::atomic<uint64_t> tasks_released{0};

void CountHostFunction(void* counter) { static_cast<std::atomic<uint64_t>*>(counter)->fetch_add(1); }

// A Canopy task: succeeds, or fails with a device-style error and a message.
int32_t RunTask(void* fail) {
  if (fail == nullptr) return 0;
  canopySetRecentErrMsg("fuzz task failed on purpose");
  return ACL_ERROR_RT_AICORE_EXCEPTION;
}
void ReleaseTask(void*) { tasks_released.fetch_add(1); }

// ---- the report thread ----------------------------------------------------------

// A thread that does what a client's callback thread does: aclrtProcessReport in a loop.
struct ReportThread {
  std::atomic<uint64_t> id{0};
  std::thread thread;

  void Start() {
    thread = std::thread([this] {
      id.store(static_cast<uint64_t>(pthread_self()));
      for (;;) {
        if (aclrtProcessReport(20) != ACL_SUCCESS) {
          (void)aclGetRecentErrMsg();
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
      }
    });
    thread.detach();  // serves until the process exits
    while (id.load() == 0) std::this_thread::yield();
  }
};

ReportThread& Reporter() {
  static ReportThread reporter;
  return reporter;
}

uint64_t SelfThreadId() { return static_cast<uint64_t>(pthread_self()); }

// ---- the world the program acts on -----------------------------------------------

struct Block {
  void* ptr;
  size_t size;
};

struct Mapping {
  void* address;
  aclrtDrvMemHandle handle;
  size_t size;
};

struct Reservation {
  void* base;
  size_t size;
};

struct StreamState {
  aclrtStream handle;
  uint64_t subscriber = 0;  // the thread aclrtSubscribeReport bound to it, as far as we know
};

// Things that are not (or no longer) valid, for the API to reject.
int foreign_word = 0;

class Program {
 public:
  explicit Program(FuzzedDataProvider& in) : in_(in), host_a_(kHostBytes), host_b_(kHostBytes) {
    // Each program starts on device 0 with a current context.
    aclrtContext context = nullptr;
    if (aclrtGetCurrentContext(&context) != ACL_SUCCESS) {
      ClearErrorMessage();
      CANOPY_FUZZ_CHECK(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice(0)");
    }
    CANOPY_FUZZ_CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free_at_start_, &total_) == ACL_SUCCESS, "aclrtGetMemInfo");
  }

  ~Program() { Cleanup(); }

  void Step() {
    switch (in_.ConsumeIntegralInRange(0, 31)) {
      case 0:
        CreateStream();
        break;
      case 1:
        DestroyStream();
        break;
      case 2:
        SynchronizeStream();
        break;
      case 3:
        QueryStream();
        break;
      case 4:
        CreateEvent();
        break;
      case 5:
        DestroyEvent();
        break;
      case 6:
        RecordOrWait();
        break;
      case 7:
        SynchronizeEvent();
        break;
      case 8:
        QueryEvent();
        break;
      case 9:
        LaunchHostFunction();
        break;
      case 10:
        LaunchTask();
        break;
      case 11:
        Subscribe();
        break;
      case 12:
        LaunchCallback();
        break;
      case 13:
        ProcessReport();
        break;
      case 14:
        Malloc();
        break;
      case 15:
        Free();
        break;
      case 16:
        MallocHost();
        break;
      case 17:
        Copy();
        break;
      case 18:
        Copy();
        break;
      case 19:
        Fill();
        break;
      case 20:
        Copy2d();
        break;
      case 21:
        PoolAllocate();
        break;
      case 22:
        PoolFree();
        break;
      case 23:
        Reserve();
        break;
      case 24:
        Physical();
        break;
      case 25:
        Map();
        break;
      case 26:
        Unmap();
        break;
      case 27:
        Context();
        break;
      case 28:
        Device();
        break;
      case 29:
        SynchronizeDevice();
        break;
      case 30:
        Queries();
        break;
      default:
        ElapsedTime();
        break;
    }
  }

 private:
  // ---- pickers ----

  template <typename T>
  T PickOf(const std::vector<T>& values, T otherwise) {
    if (values.empty()) return otherwise;
    return values[in_.ConsumeIntegralInRange<size_t>(0, values.size() - 1)];
  }

  // A stream handle: default, live, destroyed, or not a stream at all.
  aclrtStream PickStream() {
    switch (in_.ConsumeIntegralInRange(0, 15)) {
      case 0:
        return nullptr;
      case 1:
        return PickOf(dead_streams_, static_cast<aclrtStream>(nullptr));
      case 2:
        return &foreign_word;
      case 3:
        return PickOf(events_, static_cast<aclrtEvent>(nullptr));  // an event, not a stream
      default:
        if (streams_.empty()) return nullptr;
        return streams_[in_.ConsumeIntegralInRange<size_t>(0, streams_.size() - 1)].handle;
    }
  }

  aclrtEvent PickEvent() {
    switch (in_.ConsumeIntegralInRange(0, 15)) {
      case 0:
        return nullptr;
      case 1:
        return PickOf(dead_events_, static_cast<aclrtEvent>(nullptr));
      case 2:
        return &foreign_word;
      default:
        return PickOf(events_, static_cast<aclrtEvent>(nullptr));
    }
  }

  StreamState* FindStream(aclrtStream handle) {
    for (auto& s : streams_) {
      if (s.handle == handle) return &s;
    }
    return nullptr;
  }

  // A pointer only the API may look at (it checks device pointers against its registry).
  void* PickAnyDevicePointer(size_t& room) {
    room = 0;
    switch (in_.ConsumeIntegralInRange(0, 11)) {
      case 0:
        return nullptr;
      case 1:
        return PickOf(freed_, static_cast<void*>(nullptr));  // freed: stale
      case 2:
        room = kHostBytes;
        return host_a_.data();  // pageable host memory
      case 3:
        return &foreign_word;
      case 4:
        if (!mappings_.empty()) {
          const Mapping& m = mappings_[in_.ConsumeIntegralInRange<size_t>(0, mappings_.size() - 1)];
          room = m.size;
          return m.address;
        }
        return nullptr;
      case 5:
        if (!pinned_.empty()) {
          const Block& b = pinned_[in_.ConsumeIntegralInRange<size_t>(0, pinned_.size() - 1)];
          room = b.size;
          return b.ptr;
        }
        return nullptr;
      case 6:
        if (!pool_.empty()) {
          const Block& b = pool_[in_.ConsumeIntegralInRange<size_t>(0, pool_.size() - 1)];
          room = b.size;
          return b.ptr;
        }
        return nullptr;
      default: {
        if (device_.empty()) return nullptr;
        const Block& b = device_[in_.ConsumeIntegralInRange<size_t>(0, device_.size() - 1)];
        const size_t interior =
            in_.ConsumeIntegralInRange(0, 3) == 0 ? in_.ConsumeIntegralInRange<size_t>(0, b.size) : 0;
        room = b.size - interior;
        return static_cast<char*>(b.ptr) + interior;
      }
    }
  }

  // A pointer the harness vouches for: valid host or device memory with `room` bytes.
  void* PickValidPointer(size_t& room) {
    switch (in_.ConsumeIntegralInRange(0, 5)) {
      case 0:
        room = kHostBytes;
        return host_a_.data();
      case 1:
        room = kHostBytes;
        return host_b_.data();
      case 2:
        if (!pinned_.empty()) {
          const Block& b = pinned_[in_.ConsumeIntegralInRange<size_t>(0, pinned_.size() - 1)];
          room = b.size;
          return b.ptr;
        }
        room = kHostBytes;
        return host_b_.data();
      default:
        if (!device_.empty()) {
          const Block& b = device_[in_.ConsumeIntegralInRange<size_t>(0, device_.size() - 1)];
          room = b.size;
          return b.ptr;
        }
        room = kHostBytes;
        return host_a_.data();
    }
  }

  size_t PickCount(size_t room) {
    switch (in_.ConsumeIntegralInRange(0, 7)) {
      case 0:
        return 0;
      case 1:
        return room;
      case 2:
        return room + 1;  // one past: the API must refuse when it can tell
      default:
        return room == 0 ? 0 : in_.ConsumeIntegralInRange<size_t>(1, std::min<size_t>(room, 4096));
    }
  }

  int32_t PickTimeout() {
    switch (in_.ConsumeIntegralInRange(0, 4)) {
      case 0:
        return 0;  // invalid
      case 1:
        return -2;  // invalid
      case 2:
        return -1;  // forever: only where nothing can block for long
      default:
        return in_.ConsumeIntegralInRange<int32_t>(1, kShortTimeoutMs);
    }
  }

  // ---- streams ----

  void CreateStream() {
    if (streams_.size() >= kMaxLive) return;
    aclrtStream stream = nullptr;
    aclError status;
    if (in_.ConsumeBool()) {
      status = CALL(aclrtCreateStream(in_.ConsumeIntegralInRange(0, 15) == 0 ? nullptr : &stream));
    } else {
      status =
          CALL(aclrtCreateStreamWithConfig(&stream, in_.ConsumeIntegral<uint32_t>(), in_.ConsumeIntegral<uint32_t>()));
    }
    Note("stream %p", stream);
    if (status == ACL_SUCCESS && stream != nullptr) streams_.push_back({stream});
  }

  void ForgetStream(aclrtStream handle) {
    for (size_t i = 0; i < streams_.size(); ++i) {
      if (streams_[i].handle == handle) {
        streams_.erase(streams_.begin() + static_cast<std::ptrdiff_t>(i));
        dead_streams_.push_back(handle);
        return;
      }
    }
  }

  void DestroyStream() {
    const aclrtStream stream = PickStream();
    const bool force = in_.ConsumeBool();
    // A force-destroy drops queued event records, pool frees and deferred
    // releases behind a running task (K12, K15, fixed in fa31538): nothing
    // here steers around it any more.
    Note("destroy stream %p", stream);
    const aclError status = force ? CALL(aclrtDestroyStreamForce(stream)) : CALL(aclrtDestroyStream(stream));
    if (status == ACL_SUCCESS) ForgetStream(stream);
  }

  void SynchronizeStream() {
    const aclrtStream stream = PickStream();
    const int32_t timeout = PickTimeout();
    if (in_.ConsumeBool()) {
      CALL(aclrtSynchronizeStream(stream));
    } else {
      CALL(aclrtSynchronizeStreamWithTimeout(stream, timeout));
    }
  }

  void QueryStream() {
    const aclrtStream stream = PickStream();
    aclrtStreamStatus status;
    uint32_t value = 0;
    switch (in_.ConsumeIntegralInRange(0, 3)) {
      case 0:
        CALL(aclrtStreamQuery(stream, in_.ConsumeBool() ? &status : nullptr));
        break;
      case 1:
        CALL(aclrtStreamGetPriority(stream, in_.ConsumeBool() ? &value : nullptr));
        break;
      case 2:
        CALL(aclrtStreamGetFlags(stream, in_.ConsumeBool() ? &value : nullptr));
        break;
      default: {
        int32_t least = 0, greatest = 0;
        CALL(aclrtDeviceGetStreamPriorityRange(&least, in_.ConsumeBool() ? &greatest : nullptr));
        break;
      }
    }
  }

  // ---- events ----

  void CreateEvent() {
    if (events_.size() >= kMaxLive) return;
    aclrtEvent event = nullptr;
    aclError status;
    switch (in_.ConsumeIntegralInRange(0, 3)) {
      case 0:
        status = CALL(aclrtCreateEvent(in_.ConsumeIntegralInRange(0, 15) == 0 ? nullptr : &event));
        break;
      case 1:
        status = CALL(aclrtCreateEventWithFlag(&event, in_.ConsumeIntegralInRange<uint32_t>(0, 0x7f)));
        break;
      case 2:
        status = CALL(aclrtCreateEventExWithFlag(&event, in_.ConsumeIntegralInRange<uint32_t>(0, 0x7f)));
        break;
      default:
        status = CALL(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC));
        break;
    }
    if (status == ACL_SUCCESS && event != nullptr) events_.push_back(event);
  }

  void DestroyEvent() {
    const aclrtEvent event = PickEvent();
    if (CALL(aclrtDestroyEvent(event)) != ACL_SUCCESS) return;
    events_.erase(std::find(events_.begin(), events_.end(), event));
    dead_events_.push_back(event);
  }

  void RecordOrWait() {
    const aclrtEvent event = PickEvent();
    const aclrtStream stream = PickStream();
    switch (in_.ConsumeIntegralInRange(0, 2)) {
      case 0:
        CALL(aclrtRecordEvent(event, stream));
        break;
      case 1:
        CALL(aclrtStreamWaitEvent(stream, event));
        break;
      default:
        CALL(aclrtResetEvent(event, stream));
        break;
    }
  }

  void SynchronizeEvent() {
    const aclrtEvent event = PickEvent();
    if (in_.ConsumeBool()) {
      CALL(aclrtSynchronizeEvent(event));
    } else {
      CALL(aclrtSynchronizeEventWithTimeout(event, PickTimeout()));
    }
  }

  void QueryEvent() {
    const aclrtEvent event = PickEvent();
    if (in_.ConsumeBool()) {
      aclrtEventRecordedStatus status;
      CALL(aclrtQueryEventStatus(event, in_.ConsumeIntegralInRange(0, 7) == 0 ? nullptr : &status));
    } else {
      aclrtEventStatus status;
      CALL(aclrtQueryEvent(event, in_.ConsumeIntegralInRange(0, 7) == 0 ? nullptr : &status));
    }
  }

  void ElapsedTime() {
    float ms = 0;
    CALL(aclrtEventElapsedTime(in_.ConsumeIntegralInRange(0, 15) == 0 ? nullptr : &ms, PickEvent(), PickEvent()));
  }

  // ---- host work ----

  void LaunchHostFunction() {
    const aclrtStream stream = PickStream();
    CALL(aclrtLaunchHostFunc(stream, in_.ConsumeIntegralInRange(0, 15) == 0 ? nullptr : CountHostFunction,
                             &host_functions_run));
  }

  void LaunchTask() {
    const aclrtStream stream = PickStream();
    void* fail = in_.ConsumeIntegralInRange(0, 7) == 0 ? &foreign_word : nullptr;
    if (CALL(canopyLaunchTask(stream, "fuzz task", in_.ConsumeIntegralInRange(0, 15) == 0 ? nullptr : RunTask,
                              ReleaseTask, fail)) == ACL_SUCCESS) {
      ++tasks_launched_;
    }
  }

  void Subscribe() {
    const aclrtStream stream = PickStream();
    uint64_t thread = Reporter().id.load();
    switch (in_.ConsumeIntegralInRange(0, 5)) {
      case 0:
        thread = SelfThreadId();
        break;
      case 1:
        thread = in_.ConsumeIntegral<uint64_t>();
        break;  // a thread that does not exist
      default:
        break;
    }
    if (in_.ConsumeIntegralInRange(0, 2) == 0) {
      if (CALL(aclrtUnSubscribeReport(thread, stream)) == ACL_SUCCESS) {
        if (StreamState* state = FindStream(stream)) state->subscriber = 0;
      }
      return;
    }
    if (CALL(aclrtSubscribeReport(thread, stream)) == ACL_SUCCESS) {
      if (StreamState* state = FindStream(stream)) state->subscriber = thread;
      if (thread == SelfThreadId()) self_subscribed_ = true;
    }
  }

  void LaunchCallback() {
    const aclrtStream stream = PickStream();
    bool block = in_.ConsumeBool();
    // A blocking callback holds its stream until the subscribed thread runs it:
    // only the report thread will. (On an unknown stream the API refuses anyway.)
    StreamState* state = FindStream(stream);
    if (state != nullptr && state->subscriber != Reporter().id.load()) block = false;
    if (stream == nullptr) block = false;  // the default stream's subscriber is not tracked
    CALL(aclrtLaunchCallback(in_.ConsumeIntegralInRange(0, 15) == 0 ? nullptr : CountHostFunction, &callbacks_run,
                             block ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, stream));
  }

  void ProcessReport() {
    // On this thread: never subscribed to a stream that blocks, so short waits only.
    const int32_t timeout = PickTimeout();
    CALL(aclrtProcessReport(timeout == -1 ? 1 : timeout));
  }

  // ---- memory ----

  void Malloc() {
    void* ptr = nullptr;
    size_t size;
    switch (in_.ConsumeIntegralInRange(0, 9)) {
      case 0:
        size = 0;
        break;
      case 1:
        size = size_t{1} << 40;
        break;  // more than the device has
      case 2:
        size = std::numeric_limits<size_t>::max();
        break;
      default:
        size = in_.ConsumeIntegralInRange<size_t>(1, kMaxAllocation);
        break;
    }
    const auto policy = static_cast<aclrtMemMallocPolicy>(in_.ConsumeIntegralInRange(0, 7));
    aclError status;
    switch (in_.ConsumeIntegralInRange(0, 3)) {
      case 0:
        status = CALL(aclrtMallocAlign32(&ptr, size, policy));
        break;
      case 1:
        status = CALL(aclrtMallocCached(&ptr, size, policy));
        break;
      case 2:
        status = CALL(aclrtMalloc(in_.ConsumeIntegralInRange(0, 7) == 0 ? nullptr : &ptr, size, policy));
        break;
      default:
        status = CALL(aclrtMalloc(&ptr, size, policy));
        break;
    }
    Note("malloc %zu -> %p", size, ptr);
    if (status == ACL_SUCCESS && ptr != nullptr) {
      if (device_.size() >= kMaxLive) {
        CALL(aclrtFree(ptr));
      } else {
        device_.push_back({ptr, size});
      }
    }
  }

  void MallocHost() {
    void* ptr = nullptr;
    const size_t size =
        in_.ConsumeIntegralInRange(0, 7) == 0 ? 0 : in_.ConsumeIntegralInRange<size_t>(1, kMaxAllocation);
    if (CALL(aclrtMallocHost(&ptr, size)) == ACL_SUCCESS) {
      if (pinned_.size() >= kMaxLive) {
        CALL(aclrtFreeHost(ptr));
      } else {
        pinned_.push_back({ptr, size});
      }
    }
  }

  static void Erase(std::vector<Block>& blocks, void* ptr) {
    blocks.erase(std::remove_if(blocks.begin(), blocks.end(), [&](const Block& b) { return b.ptr == ptr; }),
                 blocks.end());
  }

  void Free() {
    size_t room;
    void* ptr = PickAnyDevicePointer(room);
    const bool host = in_.ConsumeIntegralInRange(0, 3) == 0;
    // A pool block (canopyMallocAsync) is a foreign pointer to aclrtFree (K13, fixed in fa31538).
    Note("free %p", ptr);
    const aclError status = host ? CALL(aclrtFreeHost(ptr)) : CALL(aclrtFree(ptr));
    if (status != ACL_SUCCESS) return;
    // Whatever the API freed is stale from now on.
    Erase(device_, ptr);
    Erase(pinned_, ptr);
    Erase(pool_, ptr);
    freed_.push_back(ptr);
  }

  void PoolAllocate() {
    if (pool_.size() >= kMaxLive) return;
    void* ptr = nullptr;
    const size_t size =
        in_.ConsumeIntegralInRange(0, 15) == 0 ? 0 : in_.ConsumeIntegralInRange<size_t>(1, kMaxAllocation);
    const aclrtStream stream = PickStream();
    if (CALL(canopyMallocAsync(&ptr, size, stream)) == ACL_SUCCESS) pool_.push_back({ptr, size});
    Note("pool %zu on %p -> %p", size, stream, ptr);
  }

  void PoolFree() {
    void* ptr;
    if (!pool_.empty() && in_.ConsumeIntegralInRange(0, 3) != 0) {
      ptr = pool_[in_.ConsumeIntegralInRange<size_t>(0, pool_.size() - 1)].ptr;
    } else {
      size_t room;
      ptr = PickAnyDevicePointer(room);
    }
    const aclrtStream stream = PickStream();
    Note("pool free %p on %p", ptr, stream);
    if (CALL(canopyFreeAsync(ptr, stream)) == ACL_SUCCESS) Erase(pool_, ptr);
    if (in_.ConsumeIntegralInRange(0, 7) == 0) CALL(canopyReleaseCachedMemory());
  }

  // Copies: device sides may be anything (the API checks them); host sides are valid.
  void Copy() {
    int kind = in_.ConsumeIntegralInRange(0, 7);
    size_t dst_room = 0, src_room = 0;
    void* dst;
    const void* src;
    const bool dst_checked = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE ||
                             kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE || kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE;
    const bool src_checked = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE ||
                             kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE;
    dst = dst_checked ? PickAnyDevicePointer(dst_room) : PickValidPointer(dst_room);
    src = src_checked ? PickAnyDevicePointer(src_room) : PickValidPointer(src_room);
    // A side the API trusts must really hold the bytes: copy at most what both can hold.
    size_t count = PickCount(std::min(dst_room, src_room));
    if (!dst_checked || !src_checked) count = std::min(count, std::min(dst_room, src_room));
    size_t dest_max = in_.ConsumeIntegralInRange(0, 7) == 0 ? in_.ConsumeIntegral<size_t>() : count;
    if (!dst_checked) dest_max = std::min(dest_max, dst_room);
    Note("copy kind %d dst %p max %zu src %p count %zu", kind, dst, dest_max, src, count);
    if (in_.ConsumeBool()) {
      CALL(aclrtMemcpy(dst, dest_max, src, count, static_cast<aclrtMemcpyKind>(kind)));
    } else {
      const aclrtStream stream = PickStream();
      CALL(aclrtMemcpyAsync(dst, dest_max, src, count, static_cast<aclrtMemcpyKind>(kind), stream));
    }
  }

  void Fill() {
    size_t room;
    void* ptr = PickAnyDevicePointer(room);
    const size_t count = PickCount(room);
    const size_t max_count = in_.ConsumeIntegralInRange(0, 7) == 0 ? in_.ConsumeIntegral<size_t>() : count;
    const int32_t value = in_.ConsumeIntegral<int32_t>();
    Note("fill %p max %zu count %zu", ptr, max_count, count);
    if (in_.ConsumeBool()) {
      CALL(aclrtMemset(ptr, max_count, value, count));
    } else {
      const aclrtStream stream = PickStream();
      CALL(aclrtMemsetAsync(ptr, max_count, value, count, stream));
    }
  }

  void Copy2d() {
    const int kind = in_.ConsumeIntegralInRange(0, 7);
    const bool dst_checked = kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEFAULT;
    const bool src_checked = kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT;
    size_t dst_room = 0, src_room = 0;
    void* dst = dst_checked ? PickAnyDevicePointer(dst_room) : PickValidPointer(dst_room);
    const void* src = src_checked ? PickAnyDevicePointer(src_room) : PickValidPointer(src_room);
    size_t width = in_.ConsumeIntegralInRange<size_t>(0, 512);
    size_t height = in_.ConsumeIntegralInRange<size_t>(0, 64);
    size_t dpitch = width + in_.ConsumeIntegralInRange<size_t>(0, 64);
    size_t spitch = width + in_.ConsumeIntegralInRange<size_t>(0, 64);
    switch (in_.ConsumeIntegralInRange(0, 7)) {
      case 0:
        dpitch = width == 0 ? 0 : width - 1;
        break;  // narrower than a row
      case 1:
        height = size_t{6} << 20;
        break;  // past the documented limit
      case 2:
        spitch = std::numeric_limits<size_t>::max() / 2;
        height = 3;
        break;  // span overflows
      default:
        break;
    }
    // Sides the API trusts hold the whole span, or the copy is not attempted.
    const auto span = [&](size_t pitch) { return height == 0 ? 0 : pitch * (height - 1) + width; };
    const bool dst_ok = dst_checked || (height < 1024 && dpitch < kHostBytes && span(dpitch) <= dst_room);
    const bool src_ok = src_checked || (height < 1024 && spitch < kHostBytes && span(spitch) <= src_room);
    if (!dst_ok || !src_ok) return;
    if (in_.ConsumeBool()) {
      CALL(aclrtMemcpy2d(dst, dpitch, src, spitch, width, height, static_cast<aclrtMemcpyKind>(kind)));
    } else {
      const aclrtStream stream = PickStream();
      CALL(aclrtMemcpy2dAsync(dst, dpitch, src, spitch, width, height, static_cast<aclrtMemcpyKind>(kind), stream));
    }
  }

  // ---- virtual memory ----

  void Reserve() {
    if (in_.ConsumeIntegralInRange(0, 2) == 0) {
      void* base = !reservations_.empty() && in_.ConsumeBool()
                       ? reservations_[in_.ConsumeIntegralInRange<size_t>(0, reservations_.size() - 1)].base
                       : PickOf(dead_reservations_, static_cast<void*>(&foreign_word));
      if (CALL(aclrtReleaseMemAddress(base)) == ACL_SUCCESS) {
        reservations_.erase(std::remove_if(reservations_.begin(), reservations_.end(),
                                           [&](const Reservation& r) { return r.base == base; }),
                            reservations_.end());
        dead_reservations_.push_back(base);
      }
      return;
    }
    if (reservations_.size() >= kMaxLive / 2) return;
    size_t size = kGranularity * in_.ConsumeIntegralInRange<size_t>(1, 4);
    switch (in_.ConsumeIntegralInRange(0, 9)) {
      case 0:
        size = 0;
        break;
      case 1:
        size = kGranularity + 1;
        break;
      case 2:
        size = std::numeric_limits<size_t>::max() / kGranularity * kGranularity;
        break;
      default:
        break;
    }
    size_t alignment = 0;
    switch (in_.ConsumeIntegralInRange(0, 7)) {
      case 0:
        alignment = 3;
        break;
      case 1:
        alignment = kGranularity * 2;
        break;
      case 2:
        alignment = size_t{1} << 63;
        break;
      default:
        break;
    }
    void* expect =
        in_.ConsumeIntegralInRange(0, 7) == 0 ? reinterpret_cast<void*>(in_.ConsumeIntegral<uintptr_t>()) : nullptr;
    const uint64_t flags = in_.ConsumeIntegralInRange(0, 7) == 0 ? in_.ConsumeIntegral<uint64_t>() : 0;
    void* base = nullptr;
    if (CALL(aclrtReserveMemAddress(&base, size, alignment, expect, flags)) == ACL_SUCCESS) {
      reservations_.push_back({base, size});
    }
  }

  void Physical() {
    if (in_.ConsumeIntegralInRange(0, 2) == 0) {
      aclrtDrvMemHandle handle = !physicals_.empty() && in_.ConsumeBool()
                                     ? physicals_[in_.ConsumeIntegralInRange<size_t>(0, physicals_.size() - 1)].handle
                                     : PickOf(dead_physicals_, static_cast<aclrtDrvMemHandle>(&foreign_word));
      if (CALL(aclrtFreePhysical(handle)) == ACL_SUCCESS) {
        physicals_.erase(
            std::remove_if(physicals_.begin(), physicals_.end(), [&](const Mapping& p) { return p.handle == handle; }),
            physicals_.end());
        dead_physicals_.push_back(handle);
      }
      return;
    }
    if (physicals_.size() >= kMaxLive / 2) return;
    aclrtPhysicalMemProp prop{};
    prop.handleType = in_.ConsumeIntegralInRange(0, 7) == 0 ? ACL_MEM_HANDLE_TYPE_POSIX : ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = static_cast<aclrtMemLocationType>(
        in_.ConsumeIntegralInRange(0, 3) == 0 ? in_.ConsumeIntegralInRange(0, 4) : ACL_MEM_LOCATION_TYPE_DEVICE);
    prop.location.id = in_.ConsumeIntegralInRange(0, 7) == 0 ? in_.ConsumeIntegralInRange<uint32_t>(0, 3) : 0;
    prop.memAttr = static_cast<aclrtMemAttr>(in_.ConsumeIntegralInRange(0, 3) == 0 ? in_.ConsumeIntegralInRange(0, 17)
                                                                                   : ACL_HBM_MEM_HUGE);
    size_t size = kGranularity * in_.ConsumeIntegralInRange<size_t>(1, 2);
    if (in_.ConsumeIntegralInRange(0, 7) == 0) size = in_.ConsumeBool() ? 0 : kGranularity - 1;
    if (in_.ConsumeIntegralInRange(0, 15) == 0) size = size_t{1} << 40;  // more than the device has
    const uint64_t flags = in_.ConsumeIntegralInRange(0, 15) == 0 ? 1 : 0;
    aclrtDrvMemHandle handle = nullptr;
    if (CALL(aclrtMallocPhysical(in_.ConsumeIntegralInRange(0, 15) == 0 ? nullptr : &handle, size,
                                 in_.ConsumeIntegralInRange(0, 15) == 0 ? nullptr : &prop, flags)) == ACL_SUCCESS) {
      physicals_.push_back({nullptr, handle, size});
    }
    size_t granularity = 0;
    CALL(aclrtMemGetAllocationGranularity(
        &prop, static_cast<aclrtMemGranularityOptions>(in_.ConsumeIntegralInRange(0, 2)), &granularity));
  }

  void Map() {
    if (mappings_.size() >= kMaxLive) return;
    void* address = &foreign_word;
    if (!reservations_.empty() && in_.ConsumeIntegralInRange(0, 7) != 0) {
      const Reservation& r = reservations_[in_.ConsumeIntegralInRange<size_t>(0, reservations_.size() - 1)];
      const size_t slots = r.size / kGranularity;
      address = static_cast<char*>(r.base) +
                kGranularity * in_.ConsumeIntegralInRange<size_t>(0, slots == 0 ? 0 : slots - 1) +
                (in_.ConsumeIntegralInRange(0, 7) == 0 ? 4096 : 0);
    }
    aclrtDrvMemHandle handle = &foreign_word;
    size_t size = kGranularity;
    if (!physicals_.empty() && in_.ConsumeIntegralInRange(0, 7) != 0) {
      const Mapping& p = physicals_[in_.ConsumeIntegralInRange<size_t>(0, physicals_.size() - 1)];
      handle = p.handle;
      size = p.size;
    } else if (!dead_physicals_.empty() && in_.ConsumeBool()) {
      handle = dead_physicals_[in_.ConsumeIntegralInRange<size_t>(0, dead_physicals_.size() - 1)];
    }
    if (in_.ConsumeIntegralInRange(0, 7) == 0) size = in_.ConsumeBool() ? size / 2 : size * 2;
    const size_t offset = in_.ConsumeIntegralInRange(0, 15) == 0 ? kGranularity : 0;
    const uint64_t flags = in_.ConsumeIntegralInRange(0, 15) == 0 ? 1 : 0;
    Note("map %p size %zu handle %p", address, size, handle);
    if (CALL(aclrtMapMem(address, size, offset, handle, flags)) == ACL_SUCCESS) {
      mappings_.push_back({address, handle, size});
    }
  }

  void Unmap() {
    void* address = &foreign_word;
    if (!mappings_.empty() && in_.ConsumeIntegralInRange(0, 3) != 0) {
      address = mappings_[in_.ConsumeIntegralInRange<size_t>(0, mappings_.size() - 1)].address;
    } else if (!reservations_.empty() && in_.ConsumeBool()) {
      address = reservations_[0].base;
    }
    // Queued copies and fills on the range may still be pending (K14, fixed in fa31538).
    Note("unmap %p", address);
    if (CALL(aclrtUnmapMem(address)) == ACL_SUCCESS) {
      mappings_.erase(
          std::remove_if(mappings_.begin(), mappings_.end(), [&](const Mapping& m) { return m.address == address; }),
          mappings_.end());
    }
  }

  // ---- contexts and devices ----

  void Context() {
    switch (in_.ConsumeIntegralInRange(0, 3)) {
      case 0: {
        if (contexts_.size() >= 4) return;
        aclrtContext context = nullptr;
        const int32_t device = in_.ConsumeIntegralInRange(0, 7) == 0 ? in_.ConsumeIntegralInRange(-1, 3)
                                                                     : in_.ConsumeIntegralInRange(0, 1);
        if (CALL(aclrtCreateContext(&context, device)) == ACL_SUCCESS) contexts_.push_back(context);
        break;
      }
      case 1: {
        aclrtContext context = in_.ConsumeBool() ? PickOf(contexts_, static_cast<aclrtContext>(nullptr))
                                                 : PickOf(dead_contexts_, static_cast<aclrtContext>(&foreign_word));
        if (CALL(aclrtDestroyContext(context)) == ACL_SUCCESS) {
          contexts_.erase(std::find(contexts_.begin(), contexts_.end(), context));
          dead_contexts_.push_back(context);
          RefreshStreams();
        }
        break;
      }
      case 2: {
        aclrtContext context = in_.ConsumeBool() ? PickOf(contexts_, static_cast<aclrtContext>(nullptr))
                                                 : PickOf(dead_contexts_, static_cast<aclrtContext>(&foreign_word));
        CALL(aclrtSetCurrentContext(context));
        break;
      }
      default: {
        aclrtContext context = nullptr;
        CALL(aclrtGetCurrentContext(in_.ConsumeIntegralInRange(0, 7) == 0 ? nullptr : &context));
        break;
      }
    }
  }

  void Device() {
    const int32_t device =
        in_.ConsumeIntegralInRange(0, 7) == 0 ? in_.ConsumeIntegralInRange(-1, 3) : in_.ConsumeIntegralInRange(0, 1);
    switch (in_.ConsumeIntegralInRange(0, 6)) {
      case 0:
        CALL(aclrtSetDevice(device));
        break;
      case 1:
        CALL(aclrtResetDevice(device));
        RefreshStreams();
        break;
      case 2:
        CALL(aclrtResetDeviceForce(device));
        RefreshStreams();
        break;
      case 3: {
        int32_t current = -1;
        CALL(aclrtGetDevice(in_.ConsumeIntegralInRange(0, 7) == 0 ? nullptr : &current));
        break;
      }
      case 4: {
        int32_t can = 0;
        CALL(aclrtDeviceCanAccessPeer(&can, device, in_.ConsumeIntegralInRange(-1, 2)));
        break;
      }
      case 5:
        CALL(aclrtDeviceEnablePeerAccess(device, in_.ConsumeIntegralInRange(0, 3) == 0 ? 1 : 0));
        break;
      default:
        CALL(aclrtDeviceDisablePeerAccess(device));
        break;
    }
  }

  void SynchronizeDevice() {
    if (in_.ConsumeBool()) {
      CALL(aclrtSynchronizeDevice());
    } else {
      CALL(aclrtSynchronizeDeviceWithTimeout(PickTimeout()));
    }
  }

  void Queries() {
    size_t free = 0, total = 0;
    int64_t value = 0;
    uint32_t count = 0;
    switch (in_.ConsumeIntegralInRange(0, 4)) {
      case 0:
        CALL(aclrtGetMemInfo(static_cast<aclrtMemAttr>(in_.ConsumeIntegralInRange(0, 31)), &free,
                             in_.ConsumeIntegralInRange(0, 7) == 0 ? nullptr : &total));
        break;
      case 1:
        CALL(aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(in_.ConsumeIntegralInRange(0, 3)),
                                 in_.ConsumeIntegralInRange<int64_t>(-1, 5)));
        break;
      case 2:
        CALL(aclrtGetSysParamOpt(static_cast<aclSysParamOpt>(in_.ConsumeIntegralInRange(0, 3)), &value));
        break;
      case 3:
        CALL(aclrtGetDeviceCount(in_.ConsumeIntegralInRange(0, 7) == 0 ? nullptr : &count));
        break;
      default:
        if (aclrtGetSocName() == nullptr) RequireErrorMessage("aclrtGetSocName", -1);
        break;
    }
  }

  // ---- bookkeeping ----

  // Streams die with their context (aclrtDestroyContext, aclrtResetDevice): ask the API which still live.
  void RefreshStreams() {
    for (size_t i = streams_.size(); i-- > 0;) {
      uint32_t flags = 0;
      if (aclrtStreamGetFlags(streams_[i].handle, &flags) != ACL_SUCCESS) {
        ClearErrorMessage();
        dead_streams_.push_back(streams_[i].handle);
        streams_.erase(streams_.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
  }

  // Everything back: the next program starts from the same state.
  void Cleanup() {
    // Streams first (destroying drains them; errors of failed tasks surface here).
    for (const StreamState& s : streams_) {
      (void)aclrtSynchronizeStream(s.handle);
      CANOPY_FUZZ_CHECK(aclrtDestroyStream(s.handle) == ACL_SUCCESS, "aclrtDestroyStream at cleanup: %s",
                        aclGetRecentErrMsg());
    }
    streams_.clear();
    aclrtContext context = nullptr;
    if (aclrtGetCurrentContext(&context) != ACL_SUCCESS) {
      ClearErrorMessage();
      CANOPY_FUZZ_CHECK(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice(0)");
    }
    (void)aclrtSynchronizeDevice();
    for (aclrtContext c : contexts_) {
      CANOPY_FUZZ_CHECK(aclrtDestroyContext(c) == ACL_SUCCESS, "aclrtDestroyContext at cleanup");
    }
    contexts_.clear();
    if (aclrtGetCurrentContext(&context) != ACL_SUCCESS) {
      ClearErrorMessage();
      CANOPY_FUZZ_CHECK(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice(0)");
    }
    // Device 1 is only borrowed: its default context goes (draining its streams).
    (void)aclrtResetDeviceForce(1);
    if (aclrtGetCurrentContext(&context) != ACL_SUCCESS) {
      ClearErrorMessage();
      CANOPY_FUZZ_CHECK(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice(0)");
    }
    (void)aclrtSynchronizeDevice();
    ClearErrorMessage();
    for (aclrtEvent e : events_) CANOPY_FUZZ_CHECK(aclrtDestroyEvent(e) == ACL_SUCCESS, "aclrtDestroyEvent");
    events_.clear();
    for (const Block& b : pool_) CANOPY_FUZZ_CHECK(canopyFreeAsync(b.ptr, nullptr) == ACL_SUCCESS, "canopyFreeAsync");
    pool_.clear();
    for (const Block& b : device_) CANOPY_FUZZ_CHECK(aclrtFree(b.ptr) == ACL_SUCCESS, "aclrtFree");
    device_.clear();
    for (const Block& b : pinned_) CANOPY_FUZZ_CHECK(aclrtFreeHost(b.ptr) == ACL_SUCCESS, "aclrtFreeHost");
    pinned_.clear();
    for (const Mapping& m : mappings_) CANOPY_FUZZ_CHECK(aclrtUnmapMem(m.address) == ACL_SUCCESS, "aclrtUnmapMem");
    mappings_.clear();
    for (const Mapping& p : physicals_)
      CANOPY_FUZZ_CHECK(aclrtFreePhysical(p.handle) == ACL_SUCCESS, "aclrtFreePhysical");
    physicals_.clear();
    for (const Reservation& r : reservations_) {
      CANOPY_FUZZ_CHECK(aclrtReleaseMemAddress(r.base) == ACL_SUCCESS, "aclrtReleaseMemAddress");
    }
    reservations_.clear();
    CANOPY_FUZZ_CHECK(canopyReleaseCachedMemory() == ACL_SUCCESS, "canopyReleaseCachedMemory");
    // Callbacks delivered to this thread (never blocking ones) are run, so none linger.
    if (self_subscribed_) {
      while (aclrtProcessReport(1) == ACL_SUCCESS) {
      }
      ClearErrorMessage();
    }
    // Every task was released once, and every byte is back: the device
    // synchronisations covered force-destroyed streams too (K17).
    CANOPY_FUZZ_CHECK(tasks_released.load() == tasks_released_at_start_ + tasks_launched_,
                      "%llu tasks launched, %llu released", static_cast<unsigned long long>(tasks_launched_),
                      static_cast<unsigned long long>(tasks_released.load() - tasks_released_at_start_));
    size_t free = 0, total = 0;
    CANOPY_FUZZ_CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total) == ACL_SUCCESS, "aclrtGetMemInfo");
    CANOPY_FUZZ_CHECK(free == free_at_start_ && total == total_,
                      "device memory leaked: %zu of %zu bytes free, %zu before", free, total, free_at_start_);
  }

  FuzzedDataProvider& in_;
  std::vector<uint8_t> host_a_, host_b_;
  std::vector<StreamState> streams_;
  std::vector<aclrtStream> dead_streams_;
  std::vector<aclrtEvent> events_, dead_events_;
  std::vector<Block> device_, pinned_, pool_;
  std::vector<void*> freed_;
  std::vector<Reservation> reservations_;
  std::vector<void*> dead_reservations_;
  std::vector<Mapping> physicals_;  // address unused
  std::vector<aclrtDrvMemHandle> dead_physicals_;
  std::vector<Mapping> mappings_;
  std::vector<aclrtContext> contexts_, dead_contexts_;
  bool self_subscribed_ = false;
  uint64_t tasks_launched_ = 0;
  const uint64_t tasks_released_at_start_ = tasks_released.load();
  size_t free_at_start_ = 0, total_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  setenv("CANOPY_DEVICE_COUNT", kDeviceCount, /*overwrite=*/0);
  InitRuntimeOnce();
  Reporter().Start();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Program program(in);
  for (int step = 0; step < kMaxSteps && in.remaining_bytes() > 0; ++step) program.Step();
  return 0;
}
