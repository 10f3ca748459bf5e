#include "error_message.h"

#include <cstdarg>
#include <cstdio>

namespace canopy::runtime {
namespace {
// Large enough for a function name, a pointer range and a reason.
constexpr size_t kMessageBytes = 1024;
thread_local std::string recent_error;
thread_local std::string taken_error;  // what the last aclGetRecentErrMsg returned
}  // namespace

void SetRecentError(std::string message) { recent_error = std::move(message); }

void SetRecentErrorF(const char* format, ...) {
  char buffer[kMessageBytes];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  recent_error = buffer;
}

const char* RecentError() { return recent_error.c_str(); }

void ClearRecentError() { recent_error.clear(); }

const char* TakeRecentError() {
  taken_error.swap(recent_error);
  recent_error.clear();
  return taken_error.c_str();
}

}  // namespace canopy::runtime
