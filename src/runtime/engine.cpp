#include "engine.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "common/env.h"
#include "compute_team.h"
#include "error_message.h"
#include "event.h"
#include "host_callback_pool.h"
#include "host_task.h"
#include "report_router.h"
#include "runtime.h"
#include "spin_wait.h"
#include "stream.h"
#include "trace.h"

namespace canopy::runtime {
namespace {
thread_local bool is_engine_thread = false;
thread_local int32_t engine_device = -1;
thread_local bool compute_team_prepared = false;
// What SizeComputeTeam did when the engine thread started, for CANOPY_VERBOSE.
thread_local std::string compute_team_size;

}  // namespace

std::string TaskFailureMessage(const char* name, int32_t status) {
  const char* detail = RecentError();
  std::string message = "task '";
  message += name;
  message += "' failed with error ";
  message += std::to_string(status);
  if (*detail != '\0') {
    message += ": ";
    message += detail;
  }
  return message;
}

bool Engine::CurrentThreadIsEngine() { return is_engine_thread; }

int32_t Engine::CurrentThreadDevice() { return is_engine_thread ? engine_device : -1; }

void Engine::PrepareComputeTeam() {
  if (!is_engine_thread || compute_team_prepared) return;
  compute_team_prepared = true;
  const std::string placement = BindComputeTeam(engine_device);
  if (EnvSwitch("CANOPY_VERBOSE", false)) {
    std::fprintf(stderr, "canopy: device %d: %s; %s\n", engine_device, compute_team_size.c_str(), placement.c_str());
  }
}

Engine::Engine(int32_t device_id) : device_id_(device_id), thread_([this] { Run(); }) {}

Engine::~Engine() { Stop(); }

void Engine::Stop() {
  if (!thread_.joinable()) return;
  stopping_.store(true, std::memory_order_seq_cst);
  WakeUp();
  thread_.join();
  RunRequests();  // whatever arrived while the thread was leaving
}

void Engine::RunBetweenTasks(const std::function<void()>& work) {
  Request request{&work};
  bool run_here = false;
  {
    std::lock_guard lock(mutex_);
    // An engine thread (a user task calling a synchronous copy) runs it itself:
    // waiting for an engine, its own or another, could wait forever.
    run_here = is_engine_thread || stopping_.load();
    if (!run_here) {
      requests_.push_back(&request);
      has_requests_.store(true, std::memory_order_seq_cst);
    }
  }
  // Decided under the lock: once queued, `request.done` belongs to the engine
  // (it may already be set by now, and reading it here would race and run the work twice).
  if (run_here) {
    work();
    return;
  }
  Notify();
  std::unique_lock lock(mutex_);
  request_done_cv_.wait(lock, [&] { return request.done; });
}

void Engine::RunRequests() {
  std::deque<Request*> taken;
  {
    std::lock_guard lock(mutex_);
    taken.swap(requests_);
    has_requests_.store(false, std::memory_order_seq_cst);
  }
  if (taken.empty()) return;
  for (Request* request : taken) (*request->work)();
  {
    std::lock_guard lock(mutex_);
    for (Request* request : taken) request->done = true;
  }
  request_done_cv_.notify_all();
}

void Engine::AddStream(std::shared_ptr<Stream> stream) {
  {
    std::lock_guard lock(mutex_);
    streams_.push_back(std::move(stream));
    streams_version_.fetch_add(1);
  }
  Notify();
}

void Engine::RemoveStream(const Stream* stream) {
  {
    std::lock_guard lock(mutex_);
    std::erase_if(streams_, [&](const auto& s) { return s.get() == stream; });
    streams_version_.fetch_add(1);
  }
  Notify();
}

void Engine::WakeUp() {
  std::lock_guard lock(mutex_);
  wake_cv_.notify_one();
}

void Engine::Run() {
  is_engine_thread = true;
  engine_device = device_id_;
  // Before any kernel reads omp_get_max_threads() to split its work (forking
  // no team: that waits for PrepareComputeTeam).
  compute_team_size = SizeComputeTeam();
  std::vector<std::shared_ptr<Stream>> snapshot;
  uint64_t snapshot_version = ~uint64_t{0};
  size_t start = 0;
  while (!stopping_.load(std::memory_order_acquire)) {
    const uint64_t seen = signals_.load(std::memory_order_seq_cst);
    if (has_requests_.load(std::memory_order_seq_cst)) RunRequests();
    if (streams_version_.load(std::memory_order_acquire) != snapshot_version) {
      std::lock_guard lock(mutex_);
      snapshot = streams_;
      snapshot_version = streams_version_.load();
    }
    // One head task per stream per round, so no stream starves another.
    bool progressed = false;
    const size_t count = snapshot.size();
    for (size_t i = 0; i < count; ++i) {
      const auto& stream = snapshot[(start + i) % count];
      Task task;
      if (stream->HasQueued() && stream->TakeRunnable(task)) {
        Execute(stream, task);
        progressed = true;
      }
    }
    ++start;
    if (progressed) continue;

    // Nothing could run. Every change that can make a stream runnable (an
    // enqueue, a completed event, a returned host callback) bumps signals_, so
    // polling reads one atomic and never touches the streams' locks. A task
    // that arrives soon after the last one then starts without a futex wake-up.
    if (SpinUntil([&] { return signals_.load(std::memory_order_seq_cst) != seen; }, kEngineSpinNs)) continue;
    std::unique_lock lock(mutex_);
    sleeping_.store(true, std::memory_order_seq_cst);
    wake_cv_.wait(lock, [&] {
      return signals_.load(std::memory_order_seq_cst) != seen || stopping_.load() ||
             streams_version_.load() != snapshot_version;
    });
    sleeping_.store(false, std::memory_order_seq_cst);
  }
  snapshot.clear();
}

void Engine::Execute(const std::shared_ptr<Stream>& stream, Task& task) {
  switch (task.kind) {
    case TaskKind::kCompute: {
      // A failing task names its reason in the recent error; start from a clean slate.
      ClearRecentError();
      int32_t status = 0;
      const bool tracing = Tracer::Enabled();
      const Tracer::Track track{device_id_, stream->trace_id()};
      int64_t begin_ns = 0;
      if (tracing) {
        Tracer::SetCurrentTrack(track);
        begin_ns = NowNs();
      }
      try {
        status = task.compute(task.PayloadPtr());
      } catch (...) {
        status = kInternalTaskError;
        SetRecentError("the task threw a C++ exception");
      }
      if (tracing) {
        Tracer::Get().Span(task.name, "task", track, begin_ns, NowNs());
        Tracer::SetCurrentTrack({});
      }
      if (task.release != nullptr) task.release(task.PayloadPtr());
      if (status == 0) {
        stream->Finish(0, nullptr);
      } else {
        stream->Finish(status, TaskFailureMessage(task.name, status).c_str());
      }
      return;
    }
    case TaskKind::kEventRecord:
      if (Tracer::Enabled()) Tracer::Get().Instant("event record", "event", {device_id_, stream->trace_id()}, NowNs());
      task.event->Complete(task.generation);
      task.event->Release();
      stream->Finish(0, nullptr);
      return;
    case TaskKind::kEventReset:
      task.event->Reset();
      task.event->Release();
      stream->Finish(0, nullptr);
      return;
    case TaskKind::kEventWait:  // retired by Stream::TakeRunnable
      stream->Finish(0, nullptr);
      return;
    case TaskKind::kHostTask:
      StartHostTask(stream, task);
      return;
    case TaskKind::kHostFunc: {
      stream->HoldForHost();
      HostFn fn = task.host_fn;
      void* user_data = task.Payload<void*>();
      std::string error;
      const bool submitted = HostCallbackPool::Get().Submit(
          [stream, fn, user_data, device = device_id_] {
            const int64_t begin_ns = Tracer::Enabled() ? NowNs() : 0;
            HostCallbackPool::RunHolding(stream.get(), fn, user_data);
            if (Tracer::Enabled()) {
              Tracer::Get().Span("host function", "callback", {device, stream->trace_id()}, begin_ns, NowNs());
            }
            stream->ReleaseFromHost(0, nullptr);
          },
          error);
      if (!submitted) {
        // Like a failed kernel: sticky on the stream, reported at its next synchronisation.
        const std::string message =
            "aclrtLaunchHostFunc: no thread could be started to run the host function (" + error + "); it did not run";
        stream->ReleaseFromHost(kHostThreadError, message.c_str());
      }
      return;
    }
    case TaskKind::kReport: {
      const bool blocking = task.blocking;
      if (blocking) stream->HoldForHost();
      const auto delivered = ReportRouter::Get().Deliver(
          stream->report_thread(), PendingReport{task.host_fn, task.Payload<void*>(), blocking ? stream : nullptr});
      if (delivered == ReportRouter::DeliverResult::kStreamDiscarding) {
        stream->ReleaseFromHost(0, nullptr);  // dropped with the stream's other pending tasks
      } else if (delivered == ReportRouter::DeliverResult::kNotSubscribed) {
        const std::string message =
            "aclrtLaunchCallback: the thread subscribed to this stream was unsubscribed "
            "before the callback ran";
        if (blocking) {
          stream->ReleaseFromHost(kCallbackLostError, message.c_str());
        } else {
          stream->Finish(kCallbackLostError, message.c_str());
        }
      } else if (!blocking) {
        stream->Finish(0, nullptr);
      }
      return;
    }
  }
}

}  // namespace canopy::runtime
