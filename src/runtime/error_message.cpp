#include "error_message.h"

#include <cstdarg>
#include <cstdio>

namespace canopy::runtime {
namespace {
thread_local std::string recent_error;
}  // namespace

void SetRecentError(std::string message) { recent_error = std::move(message); }

void SetRecentErrorF(const char* format, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  recent_error = buffer;
}

const char* RecentError() { return recent_error.c_str(); }

}  // namespace canopy::runtime
