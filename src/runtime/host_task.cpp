#include "host_task.h"

#include <exception>
#include <string>

#include "capture.h"
#include "engine.h"
#include "error_message.h"
#include "host_callback_pool.h"
#include "runtime.h"
#include "stream.h"
#include "trace.h"

namespace canopy::runtime {
namespace {

struct ClaimedRun {
  HostTaskClaim* claim;
  Stream* stream;
};

void RunClaimed(void* data) {
  auto* run = static_cast<ClaimedRun*>(data);
  run->claim->Run(*run->stream);
}

// Hands a started task (the stream already held, the claim published) to the pool.
void HandToPool(const std::shared_ptr<Stream>& stream, const std::shared_ptr<HostTaskClaim>& claim) {
  std::string error;
  const bool submitted = HostCallbackPool::Get().Submit(
      [stream, claim] {
        if (!claim->TryClaim()) return;  // a synchronising thread ran it
        stream->ForgetHostClaim(claim.get());
        ClaimedRun run{claim.get(), stream.get()};
        HostCallbackPool::RunHolding(stream.get(), RunClaimed, &run);
      },
      error);
  if (submitted || !claim->TryClaim()) return;
  // No thread: like a failed kernel, sticky on the stream. The task never runs.
  stream->ForgetHostClaim(claim.get());
  claim->Drop(*stream, kHostThreadError,
              ("canopyLaunchHostTask: no thread could be started to run the host task (" + error + "); it did not run")
                  .c_str());
}

}  // namespace

void HostTaskClaim::Run(Stream& stream) {
  const bool tracing = Tracer::Enabled();
  const int64_t begin_ns = tracing ? NowNs() : 0;
  ClearRecentError();  // a failing task names its reason in the recent error
  int32_t status = 0;
  try {
    status = task_.compute(task_.PayloadPtr());
  } catch (...) {
    status = kInternalTaskError;
    SetRecentError("the host task threw a C++ exception");
  }
  if (tracing) Tracer::Get().Span(task_.name, "host task", {stream.device_id(), stream.trace_id()}, begin_ns, NowNs());
  const std::string message = status == 0 ? std::string() : TaskFailureMessage(task_.name, status);
  if (task_.release != nullptr) task_.release(task_.PayloadPtr());
  stream.ReleaseFromHost(status, status == 0 ? nullptr : message.c_str());
}

void HostTaskClaim::Drop(Stream& stream, int32_t status, const char* message) {
  if (task_.release != nullptr) task_.release(task_.PayloadPtr());
  stream.ReleaseFromHost(status, message);
}

void RunPendingHostTask(Stream& stream, uint64_t target) {
  // Not on an engine; not while a capture is active, where what a call may do
  // depends on the calling thread (its capture mode, the captures it began).
  if (Engine::CurrentThreadIsEngine() || CaptureRegistry::Get().AnyActive()) return;
  const std::shared_ptr<HostTaskClaim> claim = stream.TakeHostClaim(target);
  if (claim == nullptr) return;
  // What the task may change on this thread and a callback thread would have
  // kept to itself: the recent message, the last error code, the current
  // context. Saved before the claim: once claimed, nothing may keep it from running.
  const std::string own_error = RecentError();
  const int32_t own_code = LastErrorCode(/*clear=*/false);
  const std::shared_ptr<Context> own_context = Runtime::Get().current_context();
  if (!claim->TryClaim()) return;
  ClaimedRun run{claim.get(), &stream};
  HostCallbackPool::RunHolding(&stream, RunClaimed, &run);
  RestoreRecentError(own_error);
  LastErrorCode(/*clear=*/true);
  SetLastErrorCode(own_code);
  Runtime::Get().set_current_context(own_context.get());
}

bool EnqueueHostTask(const std::shared_ptr<Stream>& stream, const Task& task) {
  std::shared_ptr<HostTaskClaim> claim;
  if (!stream->EnqueueOrStartHostTask(task, claim)) return false;
  if (claim != nullptr) HandToPool(stream, claim);
  return true;
}

void StartHostTask(const std::shared_ptr<Stream>& stream, const Task& task) {
  HandToPool(stream, stream->HoldForHostTask(task));
}

}  // namespace canopy::runtime
