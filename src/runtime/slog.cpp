#include "slog.h"

#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <new>

namespace canopy::runtime {
namespace {

constexpr int kLevelNone = 4;

struct LogSettings {
  int threshold = static_cast<int>(LogLevel::kError);
  bool to_stdout = false;
  std::FILE* file = nullptr;  // the plog file, opened on the first record
  char directory[4096] = {};
  std::mutex mutex;  // one record at a time, so lines from threads never interleave
};

int ParseLevel(const char* value) {
  if (value == nullptr || value[0] < '0' || value[0] > '4' || value[1] != '\0') return 3;  // CANN's default
  return value[0] - '0';
}

LogSettings& Settings() {
  // Made in static storage and never destroyed: records may come from threads
  // outliving static teardown, and making it allocates nothing that could fail.
  alignas(LogSettings) static unsigned char storage[sizeof(LogSettings)];
  static LogSettings* settings = [] {
    auto* s = new (storage) LogSettings;
    s->threshold = ParseLevel(std::getenv("ASCEND_GLOBAL_LOG_LEVEL"));
    const char* to_stdout = std::getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    s->to_stdout = to_stdout != nullptr && std::strcmp(to_stdout, "1") == 0;
    if (const char* path = std::getenv("ASCEND_PROCESS_LOG_PATH"); path != nullptr && *path != '\0') {
      std::snprintf(s->directory, sizeof(s->directory), "%s", path);
    }
    return s;
  }();
  return *settings;
}

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "DEBUG";
    case LogLevel::kInfo:
      return "INFO";
    case LogLevel::kWarning:
      return "WARNING";
    case LogLevel::kError:
      return "ERROR";
  }
  return "ERROR";
}

// <dir>/plog/plog-<pid>_<yyyymmddhhmmss>.log, directories made as needed; null on failure.
std::FILE* OpenPlog(const char* directory) {
  char path[4352];
  std::snprintf(path, sizeof(path), "%s/plog", directory);
  if (mkdir(directory, 0750) != 0 && errno != EEXIST) return nullptr;
  if (mkdir(path, 0750) != 0 && errno != EEXIST) return nullptr;
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &local);
  const size_t length = std::strlen(path);
  std::snprintf(path + length, sizeof(path) - length, "/plog-%d_%s.log", static_cast<int>(getpid()), stamp);
  return std::fopen(path, "a");
}

}  // namespace

bool LogEnabled(LogLevel level) noexcept {
  const LogSettings& s = Settings();
  if (s.threshold >= kLevelNone || static_cast<int>(level) < s.threshold) return false;
  return s.to_stdout || s.directory[0] != '\0';
}

void Log(LogLevel level, std::string_view module, std::string_view text) noexcept {
  if (text.empty() || !LogEnabled(level)) return;
  // CANN's record shape: [LEVEL] MODULE(pid,process):date-time.ms.us [tid] text
  timeval now{};
  gettimeofday(&now, nullptr);
  std::tm local{};
  localtime_r(&now.tv_sec, &local);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%d-%H:%M:%S", &local);
  char record[4608];
  const int written = std::snprintf(record, sizeof(record), "[%s] %.*s(%d,%s):%s.%03d.%03d [%d] %.*s\n",
                                    LevelName(level), static_cast<int>(module.size()), module.data(),
                                    static_cast<int>(getpid()), program_invocation_short_name, stamp,
                                    static_cast<int>(now.tv_usec / 1000), static_cast<int>(now.tv_usec % 1000),
                                    static_cast<int>(gettid()), static_cast<int>(text.size()), text.data());
  if (written <= 0) return;
  const size_t length = std::min(static_cast<size_t>(written), sizeof(record) - 1);
  if (record[length - 1] != '\n') record[length - 1] = '\n';  // a truncated record still ends its line
  LogSettings& s = Settings();
  std::lock_guard lock(s.mutex);
  if (s.to_stdout) {
    std::fwrite(record, 1, length, stdout);
    std::fflush(stdout);
  }
  if (s.directory[0] != '\0') {
    if (s.file == nullptr) s.file = OpenPlog(s.directory);
    if (s.file != nullptr) {
      std::fwrite(record, 1, length, s.file);
      std::fflush(s.file);
    }
  }
}

}  // namespace canopy::runtime
