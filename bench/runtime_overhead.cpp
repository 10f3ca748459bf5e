// Runtime overhead: what the acl runtime itself costs around the work.
//
//   runtime_overhead [iterations]
//
// Measures the enqueue cost of a no-op task (canopyLaunchTask) and of
// aclrtRecordEvent, the wake-up latency of an idle engine (enqueue on an idle
// stream until the task starts), the cost of synchronising an empty stream,
// and a tiny task end to end (launch + synchronise) in a loop. Prints a table.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "canopy/canopy_runtime.h"

namespace {

using Clock = std::chrono::steady_clock;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

#define CHECK(expr)                                                                     \
  do {                                                                                  \
    if (const aclError status_ = (expr); status_ != ACL_SUCCESS) {                      \
      std::fprintf(stderr, "%s failed: %d %s\n", #expr, status_, aclGetRecentErrMsg()); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

int32_t NoOp(void*) { return 0; }

int32_t StampStart(void* stamp) {
  *static_cast<int64_t*>(stamp) = NowNs();
  return 0;
}

// Holds a stream until released, so enqueues measure only the enqueue.
struct Gate {
  std::promise<void> open;
  std::shared_future<void> opened = open.get_future().share();
  static void Wait(void* gate) { static_cast<Gate*>(gate)->opened.wait(); }
};

struct Stats {
  double median_ns;
  double p90_ns;
  double mean_ns;
};

Stats Summarise(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  double sum = 0;
  for (double sample : samples) sum += sample;
  return {samples[samples.size() / 2], samples[samples.size() * 9 / 10], sum / samples.size()};
}

void PrintRow(const char* what, const Stats& stats, const char* note) {
  std::printf("| %-44s | %10.0f | %10.0f | %10.0f | %s\n", what, stats.median_ns, stats.p90_ns, stats.mean_ns, note);
}

// Batches of `batch` calls; each sample is the per-call average of one batch.
template <typename Body>
Stats PerCall(int batches, int batch, Body body) {
  std::vector<double> samples;
  for (int b = 0; b < batches; ++b) {
    const int64_t start = NowNs();
    for (int i = 0; i < batch; ++i) body();
    samples.push_back(static_cast<double>(NowNs() - start) / batch);
  }
  return Summarise(samples);
}

}  // namespace

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::max(10, std::atoi(argv[1])) : 2000;
  constexpr int kBatch = 1000;
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  aclrtEvent event = nullptr;
  CHECK(aclrtCreateEvent(&event));

  std::printf("Canopy runtime overhead (%d samples per row; times in ns)\n\n", iterations);
  std::printf("| %-44s | %10s | %10s | %10s | %s\n", "measure", "median", "p90", "mean", "note");
  std::printf("|-%s-|-%s-|-%s-|-%s-|\n", std::string(44, '-').c_str(), std::string(10, '-').c_str(),
              std::string(10, '-').c_str(), std::string(10, '-').c_str());

  // 1. Enqueue cost on a held stream: nothing runs, only the enqueue is timed.
  {
    Gate gate;
    CHECK(aclrtLaunchHostFunc(stream, Gate::Wait, &gate));
    const int batches = std::max(1, iterations / 10);
    const Stats task =
        PerCall(batches, kBatch, [&] { CHECK(canopyLaunchTask(stream, "noop", NoOp, nullptr, nullptr)); });
    const Stats record = PerCall(batches, kBatch, [&] { CHECK(aclrtRecordEvent(event, stream)); });
    gate.open.set_value();
    CHECK(aclrtSynchronizeStream(stream));
    PrintRow("enqueue no-op task (canopyLaunchTask)", task, "stream held; per call");
    PrintRow("enqueue aclrtRecordEvent", record, "stream held; per call");
  }
  // 2. Enqueue cost while the engine is draining the same stream.
  {
    const Stats task = PerCall(std::max(1, iterations / 10), kBatch,
                               [&] { CHECK(canopyLaunchTask(stream, "noop", NoOp, nullptr, nullptr)); });
    CHECK(aclrtSynchronizeStream(stream));
    PrintRow("enqueue no-op task, engine running", task, "engine drains concurrently");
  }
  // 3. Wake-up latency of an idle engine: it has gone to sleep before each enqueue.
  {
    std::vector<double> samples;
    const int wakeups = std::max(10, iterations / 20);
    for (int i = 0; i < wakeups; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));  // past the engine's spin
      int64_t started = 0;
      const int64_t enqueued = NowNs();
      CHECK(canopyLaunchTask(stream, "stamp", StampStart, nullptr, &started));
      CHECK(aclrtSynchronizeStream(stream));
      samples.push_back(static_cast<double>(started - enqueued));
    }
    PrintRow("idle engine wake-up (enqueue -> task start)", Summarise(samples), "engine asleep");
  }
  // 4. Wake-up latency of a spinning engine: enqueue right after the last task ran.
  {
    std::vector<double> samples;
    for (int i = 0; i < iterations; ++i) {
      int64_t started = 0;
      const int64_t enqueued = NowNs();
      CHECK(canopyLaunchTask(stream, "stamp", StampStart, nullptr, &started));
      CHECK(aclrtSynchronizeStream(stream));
      samples.push_back(static_cast<double>(started - enqueued));
    }
    PrintRow("busy engine start (enqueue -> task start)", Summarise(samples), "engine still polling");
  }
  // 5. Synchronising a stream with nothing queued.
  {
    const Stats sync = PerCall(std::max(1, iterations / 10), kBatch, [&] { CHECK(aclrtSynchronizeStream(stream)); });
    PrintRow("aclrtSynchronizeStream, empty stream", sync, "per call");
  }
  // 6. A tiny task end to end: launch, then wait for it.
  {
    const Stats loop = PerCall(std::max(1, iterations / 10), 100, [&] {
      CHECK(canopyLaunchTask(stream, "noop", NoOp, nullptr, nullptr));
      CHECK(aclrtSynchronizeStream(stream));
    });
    PrintRow("no-op task launch + synchronise, in a loop", loop, "per iteration");
  }
  // 7. The same through a host function (runs on a callback thread).
  {
    const Stats loop = PerCall(std::max(1, iterations / 100), 100, [&] {
      CHECK(aclrtLaunchHostFunc(
          stream, [](void*) {}, nullptr));
      CHECK(aclrtSynchronizeStream(stream));
    });
    PrintRow("empty host function + synchronise, in a loop", loop, "per iteration");
  }

  CHECK(aclrtDestroyEvent(event));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return 0;
}
