// An exception inside an exported function (here: the host running out of
// memory) must come back as the function's failure value with a message,
// never as std::terminate in the client. Each case runs in a child process
// whose address space is capped just above what it already uses.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "canopy/canopy_runtime.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CANOPY_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CANOPY_TEST_SANITIZED 1
#endif
#endif

namespace {

size_t AddressSpaceBytes() {
  FILE* statm = std::fopen("/proc/self/statm", "r");
  if (statm == nullptr) return 0;
  unsigned long pages = 0;
  const int read = std::fscanf(statm, "%lu", &pages);
  std::fclose(statm);
  return read == 1 ? pages * static_cast<size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

// An exception that left the library: a C client would have aborted.
constexpr int kExceptionCrossed = 99;

// Runs `prepare` and then, with the address space capped at its size then plus
// `headroom`, `body` in a child; returns the child's exit code, or 128 + the
// signal that killed it.
int RunCapped(size_t headroom, const std::function<void()>& prepare, const std::function<int()>& body) {
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    prepare();
    const size_t cap = AddressSpaceBytes() + headroom;
    const rlimit limit{cap, cap};
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(90);
    try {
      _exit(body());
    } catch (...) {
      _exit(kExceptionCrossed);
    }
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) return -1;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

bool MessageSays(const char* function) {
  const std::string message = aclGetRecentErrMsg();
  const bool ok = message.find(function) != std::string::npos && message.find("out of memory") != std::string::npos;
  if (!ok) std::fprintf(stderr, "message: '%s'\n", message.c_str());
  return ok;
}

class CBoundary : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef CANOPY_TEST_SANITIZED
    GTEST_SKIP() << "sanitizer allocators abort on out-of-memory instead of throwing";
#endif
  }
};

// The meta API copies the client's array: a copy the host cannot hold is a null result.
TEST_F(CBoundary, MetaApiOutOfMemoryIsANullResultWithAMessage) {
  constexpr size_t kCount = size_t{1} << 27;  // 1 GiB of int64
  const int64_t* values = nullptr;
  const int code = RunCapped(
      size_t{64} << 20,
      [&] {
        void* memory = mmap(nullptr, kCount * sizeof(int64_t), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        values = memory == MAP_FAILED ? nullptr : static_cast<const int64_t*>(memory);
      },
      [&] {
        if (values == nullptr) return 91;
        aclIntArray* array = aclCreateIntArray(values, kCount);
        if (array != nullptr) return 1;
        return MessageSays("aclCreateIntArray") ? 0 : 2;
      });
  EXPECT_EQ(code, 0) << kExceptionCrossed << " means an exception crossed the C boundary";
}

// Runtime objects come from the host heap: when it runs out, the call fails with
// ACL_ERROR_BAD_ALLOC and the process lives on (and can still free what it had).
TEST_F(CBoundary, RuntimeOutOfMemoryIsBadAlloc) {
  const int code = RunCapped(
      size_t{4} << 20,
      [] {
        (void)aclInit(nullptr);
        // Checker mode's bookkeeping needs memory of its own on every call, destroy included.
        canopySetCheckMode(0);
      },
      [] {
        constexpr int kLimit = 10'000'000;
        static aclrtEvent events[kLimit];
        int created = 0;
        aclError status = ACL_SUCCESS;
        while (created < kLimit && (status = aclrtCreateEvent(&events[created])) == ACL_SUCCESS) ++created;
        if (status != ACL_ERROR_BAD_ALLOC) return 3;
        if (!MessageSays("aclrtCreateEvent")) return 4;
        for (int i = 0; i < created; ++i) {
          if (aclrtDestroyEvent(events[i]) != ACL_SUCCESS) return 5;
        }
        return 0;
      });
  EXPECT_EQ(code, 0) << kExceptionCrossed << " means an exception crossed the C boundary";
}

}  // namespace
