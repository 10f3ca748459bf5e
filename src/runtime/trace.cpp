#include "trace.h"

#include <pthread.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include "runtime.h"

namespace canopy::runtime {
namespace {

thread_local Tracer::Track current_track;

void WriteEscaped(std::FILE* file, const char* text) {
  for (; *text != '\0'; ++text) {
    if (*text == '"' || *text == '\\') std::fputc('\\', file);
    std::fputc(*text, file);
  }
}

}  // namespace

std::atomic<bool> Tracer::enabled_{false};

Tracer& Tracer::Get() {
  static auto* tracer = new Tracer();
  return *tracer;
}

void Tracer::EnableFromEnvironment() {
  const char* path = std::getenv("CANOPY_TRACE");
  if (path == nullptr || *path == '\0' || Enabled()) return;
  Tracer& tracer = Get();
  tracer.path_ = path;
  tracer.records_.reserve(1 << 16);
  enabled_.store(true, std::memory_order_relaxed);
  std::atexit([] { Get().Flush(); });  // clients such as llama.cpp never call aclFinalize
}

void Tracer::SetCurrentTrack(Track track) { current_track = track; }
Tracer::Track Tracer::CurrentTrack() { return current_track; }

void Tracer::Span(const char* name, const char* category, Track track, int64_t begin_ns, int64_t end_ns,
                  std::string args_json) {
  const auto thread = static_cast<uint64_t>(pthread_self());
  std::lock_guard lock(mutex_);
  records_.push_back({name, category, 'X', track, thread, begin_ns, end_ns, std::move(args_json)});
}

void Tracer::Instant(const char* name, const char* category, Track track, int64_t at_ns) {
  const auto thread = static_cast<uint64_t>(pthread_self());
  std::lock_guard lock(mutex_);
  records_.push_back({name, category, 'i', track, thread, at_ns, at_ns, {}});
}

void Tracer::Flush() {
  std::lock_guard lock(mutex_);
  if (path_.empty()) return;
  std::FILE* file = std::fopen(path_.c_str(), "w");
  if (file == nullptr) return;
  constexpr double kNsPerUs = 1000.0;
  constexpr int kHostProcess = 1000;  // pid of host threads; devices are 0..N-1
  std::fprintf(file, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  std::fprintf(file, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"host\"}}", kHostProcess);
  for (const Record& r : records_) {
    const bool on_device = r.track.device >= 0;
    const int pid = on_device ? r.track.device : kHostProcess;
    const uint64_t tid = on_device ? r.track.stream : r.host_thread % 100000;
    std::fprintf(file, ",\n{\"name\":\"");
    WriteEscaped(file, r.name);
    std::fprintf(file, "\",\"cat\":\"%s\",\"ph\":\"%c\",\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%.3f", r.category,
                 r.phase, pid, tid, static_cast<double>(r.begin_ns) / kNsPerUs);
    if (r.phase == 'X') std::fprintf(file, ",\"dur\":%.3f", static_cast<double>(r.end_ns - r.begin_ns) / kNsPerUs);
    if (r.phase == 'i') std::fprintf(file, ",\"s\":\"t\"");
    if (!r.args.empty()) std::fprintf(file, ",\"args\":%s", r.args.c_str());
    std::fprintf(file, "}");
  }
  std::fprintf(file, "\n]}\n");
  std::fclose(file);
}

}  // namespace canopy::runtime
