// What every Canopy fuzz target shares: one-time runtime set-up, the status
// codes the API documents, a check that aborts (so libFuzzer keeps the input),
// and the switch that steers the harnesses around bugs that are already filed.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"

namespace canopy::fuzz {

// Device memory the fuzzers may use: small, so that "too large" requests fail
// quickly with ACL_ERROR_RT_MEMORY_ALLOCATION instead of reserving the machine.
inline constexpr const char* kFuzzDeviceMemory = "256M";

// Prints where and why, then aborts: libFuzzer then writes the input to disk.
[[noreturn]] inline void FailAt(const char* file, int line, const char* condition, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
inline void FailAt(const char* file, int line, const char* condition, const char* format, ...) {
  std::fprintf(stderr, "canopy-fuzz: %s:%d: check '%s' failed: ", file, line, condition);
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fprintf(stderr, "\n");
  std::fflush(stderr);
  std::abort();
}

#define CANOPY_FUZZ_CHECK(condition, ...)                                                  \
  do {                                                                                     \
    if (!(condition)) ::canopy::fuzz::FailAt(__FILE__, __LINE__, #condition, __VA_ARGS__); \
  } while (0)

// Bugs found by these fuzzers and not fixed yet are steered around, each at the
// places marked "Known bug Kn" (the list is in docs/reliability.md), so a long
// run explores past them. CANOPY_FUZZ_KNOWN_BUGS removes detours: "all", or a
// list such as "K1,K4". Use it to check a fix; the regression tests in
// fuzz/regressions reproduce each bug without the fuzzer.
inline bool AvoidKnownBug(int id) {
  const char* value = std::getenv("CANOPY_FUZZ_KNOWN_BUGS");
  if (value == nullptr || *value == '\0') return true;
  if (std::strcmp(value, "all") == 0 || std::strcmp(value, "1") == 0) return false;
  char name[16];
  std::snprintf(name, sizeof(name), "K%d", id);
  for (const char* p = std::strstr(value, name); p != nullptr; p = std::strstr(p + 1, name)) {
    const char after = p[std::strlen(name)];
    if (after == '\0' || after == ',') return false;  // "K1" must not match "K11"
  }
  return true;
}

// aclInit + aclrtSetDevice(0) once per process, with small device memory.
inline void InitRuntimeOnce() {
  static const bool done = [] {
    setenv("CANOPY_DEVICE_MEMORY", kFuzzDeviceMemory, /*overwrite=*/0);
    const aclError init = aclInit(nullptr);
    CANOPY_FUZZ_CHECK(init == ACL_SUCCESS, "aclInit returned %d", init);
    const aclError set = aclrtSetDevice(0);
    CANOPY_FUZZ_CHECK(set == ACL_SUCCESS, "aclrtSetDevice(0) returned %d", set);
    return true;
  }();
  (void)done;
}

// The codes an aclnn call may return, as documented: success, the two
// parameter errors, and the 561xxx internal family.
inline bool IsDocumentedAclnnStatus(aclnnStatus status) {
  return status == ACLNN_SUCCESS || status == ACLNN_ERR_PARAM_NULLPTR || status == ACLNN_ERR_PARAM_INVALID ||
         (status >= ACLNN_ERR_INNER && status <= ACLNN_ERR_INNER_STATIC_BLOCK_DIM_INVALID);
}

// A failing call must leave a message behind; aclGetRecentErrMsg hands it over and clears it.
inline void RequireErrorMessage(const char* call, int status) {
  const char* message = aclGetRecentErrMsg();
  CANOPY_FUZZ_CHECK(message != nullptr && message[0] != '\0', "%s returned %d without a message", call, status);
}

// Drops whatever message an earlier call left, so the next check sees only its own.
inline void ClearErrorMessage() { (void)aclGetRecentErrMsg(); }

}  // namespace canopy::fuzz
