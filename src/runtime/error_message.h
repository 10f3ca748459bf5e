// The thread-local "most recent error" that aclGetRecentErrMsg() returns.
#pragma once

#include <string>

namespace canopy::runtime {

// Replaces the calling thread's recent error message.
void SetRecentError(std::string message);

// printf-style convenience; the result names the function, the argument and the reason.
void SetRecentErrorF(const char* format, ...) __attribute__((format(printf, 1, 2)));

// The calling thread's recent error message; never null, "" when there is none.
const char* RecentError();
void ClearRecentError();

// aclGetRecentErrMsg: hands the message over and clears it, as CANN does. The
// text stays valid until the thread's next call; "" (never null) when none.
const char* TakeRecentError();

// Sets the message and returns `code`, so a check reads `return Fail(code, ...)`.
// Without arguments `format` is the message itself (clang's -Wformat-security
// rejects a non-literal format with no arguments).
template <typename Code, typename... Args>
Code Fail(Code code, const char* format, Args... args) {
  if constexpr (sizeof...(Args) == 0) {
    SetRecentError(format);
  } else {
    SetRecentErrorF(format, args...);
  }
  return code;
}

}  // namespace canopy::runtime
