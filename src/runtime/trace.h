// CANOPY_TRACE=FILE: a Chrome / Perfetto trace (JSON) of every task on every
// stream, host callbacks, enqueues and phase 1/phase 2 of each op. Each device
// is a process in the trace and each stream a thread; host threads appear under
// "host". When the variable is unset, every hook is one predictable branch.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace canopy::runtime {

class Tracer {
 public:
  static Tracer& Get();
  // Read once per process; the file is written at aclFinalize and at exit.
  static bool Enabled() { return enabled_.load(std::memory_order_relaxed); }
  static void EnableFromEnvironment();

  // The stream whose task the calling (engine) thread is running, for nested spans.
  struct Track {
    int32_t device = -1;
    uint32_t stream = 0;
  };
  static void SetCurrentTrack(Track track);
  static Track CurrentTrack();

  // A complete span [begin_ns, end_ns] on `track` (device -1: the calling host thread).
  void Span(const char* name, const char* category, Track track, int64_t begin_ns, int64_t end_ns,
            std::string args_json = {});
  void Instant(const char* name, const char* category, Track track, int64_t at_ns);
  void Flush();

 private:
  struct Record {
    const char* name;
    const char* category;
    char phase;
    Track track;
    uint64_t host_thread;
    int64_t begin_ns;
    int64_t end_ns;
    std::string args;
  };
  Tracer() = default;

  static std::atomic<bool> enabled_;
  std::string path_;
  std::mutex mutex_;
  std::vector<Record> records_;
};

}  // namespace canopy::runtime
