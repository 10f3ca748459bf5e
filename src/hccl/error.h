// HCCL's errors inside libhccl: an exception carrying an HcclResult and a
// message, caught at the C boundary (api_*.cpp) and in the stream tasks, where
// it becomes the function's status and the recent error message.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "hccl/hccl_types.h"

namespace canopy::hccl {

class HcclError : public std::runtime_error {
 public:
  HcclError(HcclResult code, const std::string& message) : std::runtime_error(message), code_(code) {}
  HcclResult code() const { return code_; }

 private:
  HcclResult code_;
};

// printf-style message into an HcclError.
template <typename... Args>
[[noreturn]] void Throw(HcclResult code, const char* format, Args... args) {
  char message[1024];
  if constexpr (sizeof...(Args) == 0) {
    std::snprintf(message, sizeof(message), "%s", format);
  } else {
    std::snprintf(message, sizeof(message), format, args...);
  }
  throw HcclError(code, message);
}

// Sets "<function>: <message>" as the recent error message (aclGetRecentErrMsg)
// and writes it as an ERROR record of the HCCL module; returns `code`.
HcclResult Report(const char* function, HcclResult code, const std::string& message);
// Logs a warning of the HCCL module (a refused connection, say).
void LogWarning(const std::string& message);

// The status of the exception being handled: an HcclError's own code, else
// HCCL_E_MEMORY for bad_alloc, HCCL_E_TCP_TRANSFER for a Gloo I/O failure,
// HCCL_E_TIMEOUT for a Gloo timeout, HCCL_E_INTERNAL otherwise; `message`
// receives its text.
HcclResult StatusOfCurrentException(std::string& message) noexcept;

}  // namespace canopy::hccl

namespace canopy::hccl {
// "HCCL_E_PARA" and the like; "HCCL_E_UNKNOWN" for a value outside the enum.
const char* ResultName(HcclResult code);
// A sentence about the code (HcclGetErrorString).
const char* ResultText(HcclResult code);
}  // namespace canopy::hccl
