// Helpers shared by the runtime tests. They use only the public C API.
#pragma once

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "acl/acl.h"
#include "canopy/canopy_runtime.h"

namespace canopy_test {

// aclGetRecentErrMsg hands the message over; keep it as a string.
inline std::string RecentMessage() {
  const char* message = aclGetRecentErrMsg();
  return message != nullptr ? message : "<null>";
}

#define ACL_ASSERT_OK(expr) ASSERT_EQ((expr), ACL_SUCCESS) << ::canopy_test::RecentMessage()
#define ACL_EXPECT_OK(expr) EXPECT_EQ((expr), ACL_SUCCESS) << ::canopy_test::RecentMessage()

// Expects `expr` to fail with `code` and a message that names `function`.
#define ACL_EXPECT_ERROR(expr, code, function)                               \
  do {                                                                       \
    const aclError canopy_test_status_ = (expr);                             \
    EXPECT_EQ(canopy_test_status_, (code)) << #expr;                         \
    const std::string canopy_test_message_ = ::canopy_test::RecentMessage(); \
    EXPECT_NE(canopy_test_message_.find(function), std::string::npos)        \
        << #expr << " gave message: " << canopy_test_message_;               \
  } while (0)

// Polls `done` until it holds; gives up after `limit` so a broken runtime fails
// the test instead of hanging it. Never used to assert on timing.
inline bool WaitUntil(const std::function<bool()>& done, std::chrono::milliseconds limit = std::chrono::seconds(30)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

// Runs `body` on a thread and joins it; false (instead of hanging) when it
// does not return within `limit`, leaving the thread detached.
inline bool RunBounded(const std::function<void()>& body, std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  auto done = std::make_shared<std::atomic<bool>>(false);
  std::thread thread([body, done] {
    body();
    done->store(true);
  });
  if (!WaitUntil([&] { return done->load(); }, limit)) {
    thread.detach();
    return false;
  }
  thread.join();
  return true;
}

// Holds a stream with a host function that waits on a promise, so the test
// controls exactly when the stream moves on. The destructor opens the gate and
// waits for the host function to leave, so nothing outlives the test.
class StreamBlocker {
 public:
  explicit StreamBlocker(aclrtStream stream) : opened_(open_.get_future().share()) {
    launched_ = aclrtLaunchHostFunc(stream, &StreamBlocker::Wait, this) == ACL_SUCCESS;
    EXPECT_TRUE(launched_) << RecentMessage();
  }
  StreamBlocker(const StreamBlocker&) = delete;
  StreamBlocker& operator=(const StreamBlocker&) = delete;
  ~StreamBlocker() {
    Release();
    if (launched_) {
      EXPECT_TRUE(WaitUntil([&] { return left_.load(); }));
    }
  }

  void Release() {
    if (!released_.exchange(true)) open_.set_value();
  }
  bool WaitEntered() {
    return WaitUntil([&] { return entered_.load(); });
  }
  bool entered() const { return entered_.load(); }
  bool left() const { return left_.load(); }

 private:
  static void Wait(void* self) {
    auto* blocker = static_cast<StreamBlocker*>(self);
    blocker->entered_.store(true);
    blocker->opened_.wait();
    blocker->left_.store(true);
  }

  std::promise<void> open_;
  std::shared_future<void> opened_;
  std::atomic<bool> released_{false};
  std::atomic<bool> entered_{false};
  std::atomic<bool> left_{false};
  bool launched_ = false;
};

// A task (canopyLaunchTask) that, once running on the engine, waits until the
// test opens it and then fills `bytes` of `block`: the test controls exactly
// when a running task touches memory. Launch with canopyLaunchTask(stream,
// "gated write", GatedWrite::Run, nullptr, &gate). The wait is bounded, so a
// test that never opens the gate fails instead of hanging.
struct GatedWrite {
  void* block = nullptr;
  size_t bytes = 0;
  std::atomic<bool> started{false};
  std::atomic<bool> open{false};
  std::atomic<bool> wrote{false};

  static int32_t Run(void* self) {
    auto* gate = static_cast<GatedWrite*>(self);
    gate->started.store(true);
    if (!WaitUntil([&] { return gate->open.load(); })) return ACL_ERROR_RT_INTERNAL_ERROR;
    std::memset(gate->block, 0x5a, gate->bytes);
    gate->wrote.store(true);
    return 0;
  }
  bool WaitStarted() {
    return WaitUntil([&] { return started.load(); });
  }
};

// Turns checker mode off for a test that does on purpose what the checker
// reports (freeing memory that queued work still reads), and restores it.
class CheckerOff {
 public:
  CheckerOff() : saved_(canopyCheckEnabled()) { canopySetCheckMode(0); }
  ~CheckerOff() { canopySetCheckMode(saved_); }
  CheckerOff(const CheckerOff&) = delete;
  CheckerOff& operator=(const CheckerOff&) = delete;

 private:
  const int saved_;
};

// Restores the thread's current context when it leaves scope.
class ContextGuard {
 public:
  ContextGuard() { EXPECT_EQ(aclrtGetCurrentContext(&saved_), ACL_SUCCESS); }
  ~ContextGuard() {
    if (saved_ != nullptr) {
      EXPECT_EQ(aclrtSetCurrentContext(saved_), ACL_SUCCESS);
    }
  }
  aclrtContext saved() const { return saved_; }

 private:
  aclrtContext saved_ = nullptr;
};

// A stream destroyed when it leaves scope.
class ScopedStream {
 public:
  ScopedStream() { EXPECT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS); }
  ~ScopedStream() {
    if (stream_ != nullptr) {
      EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS) << RecentMessage();
    }
  }
  ScopedStream(const ScopedStream&) = delete;
  ScopedStream& operator=(const ScopedStream&) = delete;
  aclrtStream get() const { return stream_; }
  operator aclrtStream() const { return stream_; }
  aclrtStream release() { return std::exchange(stream_, nullptr); }

 private:
  aclrtStream stream_ = nullptr;
};

// Device memory freed when it leaves scope.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t size) : size_(size) {
    EXPECT_EQ(aclrtMalloc(&data_, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << RecentMessage();
  }
  ~DeviceBuffer() {
    if (data_ != nullptr) {
      EXPECT_EQ(aclrtFree(data_), ACL_SUCCESS) << RecentMessage();
    }
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return data_; }
  template <typename T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  size_t size_;
};

// Pinned host memory freed when it leaves scope.
class HostBuffer {
 public:
  explicit HostBuffer(size_t size) : size_(size) {
    EXPECT_EQ(aclrtMallocHost(&data_, size), ACL_SUCCESS) << RecentMessage();
  }
  ~HostBuffer() {
    if (data_ != nullptr) {
      EXPECT_EQ(aclrtFreeHost(data_), ACL_SUCCESS) << RecentMessage();
    }
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  void* get() const { return data_; }
  template <typename T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  size_t size_;
};

// Host function that increments an std::atomic<int>.
inline void IncrementCounter(void* counter) { static_cast<std::atomic<int>*>(counter)->fetch_add(1); }

// canopyLaunchTask body that increments an std::atomic<int>.
inline int32_t IncrementCounterTask(void* counter) {
  static_cast<std::atomic<int>*>(counter)->fetch_add(1);
  return 0;
}

// Whether a sanitizer runs the process: they reserve address space, so
// CapAddressSpace cannot be used.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// Limits the process's address space to what it maps now plus 1 MiB: room for
// small allocations, none for a new thread's stack (for tests, in a child
// process, of what the runtime does when no thread can be started). `saved`
// receives the limit to put back with setrlimit(RLIMIT_AS, saved). False when
// the current size cannot be read or the limit cannot be set.
inline bool CapAddressSpace(rlimit* saved) {
  long pages = 0;
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%ld", &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  if (pages == 0 || getrlimit(RLIMIT_AS, saved) != 0) return false;
  const rlimit tight{static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (rlim_t{1} << 20),
                     saved->rlim_max};
  return setrlimit(RLIMIT_AS, &tight) == 0;
}

}  // namespace canopy_test
