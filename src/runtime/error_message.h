// The thread-local "most recent error" that aclGetRecentErrMsg() returns.
// Setting it never allocates and never throws, so an exception handler at the C
// boundary can report an out-of-memory condition (src/common/c_boundary.h).
#pragma once

#include <cstdint>
#include <string_view>

namespace canopy::runtime {

// Replaces the calling thread's recent error message (truncated to 4 KiB).
void SetRecentError(std::string_view message) noexcept;

// printf-style convenience; the result names the function, the argument and the reason.
void SetRecentErrorF(const char* format, ...) noexcept __attribute__((format(printf, 1, 2)));

// The calling thread's recent error message; never null, "" when there is none.
const char* RecentError() noexcept;
void ClearRecentError() noexcept;
// Puts back a message saved with RecentError() by a thread that ran other
// work meanwhile (a host task run in a synchronisation): as SetRecentError,
// but not logged again, since it was logged when it was first set.
void RestoreRecentError(std::string_view message) noexcept;

// aclGetRecentErrMsg: hands the message over and clears it, as CANN does. The
// text stays valid until the thread's next call; "" (never null) when none.
const char* TakeRecentError() noexcept;

// The calling thread's last runtime error code (aclrtGetLastError,
// aclrtPeekAtLastError): every failure reported through Fail() or ReportSync()
// records its code; `clear` resets it to 0 (ACL_SUCCESS) after reading.
void SetLastErrorCode(int32_t code) noexcept;
int32_t LastErrorCode(bool clear) noexcept;

// Sets the message and returns `code`, so a check reads `return Fail(code, ...)`.
// Without arguments `format` is the message itself (clang's -Wformat-security
// rejects a non-literal format with no arguments).
template <typename Code, typename... Args>
Code Fail(Code code, const char* format, Args... args) {
  SetLastErrorCode(static_cast<int32_t>(code));
  if constexpr (sizeof...(Args) == 0) {
    SetRecentError(format);
  } else {
    SetRecentErrorF(format, args...);
  }
  return code;
}

}  // namespace canopy::runtime
