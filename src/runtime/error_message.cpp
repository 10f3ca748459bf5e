#include "error_message.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "slog.h"

namespace canopy::runtime {
namespace {

// Large enough for a function name, pointer ranges and a reason (checker
// reports list several ranges); longer messages are truncated.
constexpr size_t kMessageBytes = 4096;

// Fixed buffers rather than strings: no allocation, so no exception, on any path.
struct MessageBuffer {
  char text[kMessageBytes] = {};

  void Assign(std::string_view message) noexcept {
    const size_t length = std::min(message.size(), kMessageBytes - 1);
    std::memmove(text, message.data(), length);
    text[length] = '\0';
  }
};

thread_local MessageBuffer recent_error;
thread_local MessageBuffer taken_error;  // what the last aclGetRecentErrMsg returned
thread_local int32_t last_error_code = 0;

}  // namespace

void SetRecentError(std::string_view message) noexcept {
  recent_error.Assign(message);
  Log(LogLevel::kError, "CANOPY", message);
}

void SetRecentErrorF(const char* format, ...) noexcept {
  // Formatted aside first: an argument may be the current message itself.
  char buffer[kMessageBytes];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  recent_error.Assign(buffer);
  Log(LogLevel::kError, "CANOPY", buffer);
}

void SetLastErrorCode(int32_t code) noexcept {
  if (code != 0) last_error_code = code;
}

int32_t LastErrorCode(bool clear) noexcept {
  const int32_t code = last_error_code;
  if (clear) last_error_code = 0;
  return code;
}

const char* RecentError() noexcept { return recent_error.text; }

void ClearRecentError() noexcept { recent_error.text[0] = '\0'; }

void RestoreRecentError(std::string_view message) noexcept { recent_error.Assign(message); }

const char* TakeRecentError() noexcept {
  std::memcpy(taken_error.text, recent_error.text, kMessageBytes);
  recent_error.text[0] = '\0';
  return taken_error.text;
}

}  // namespace canopy::runtime
