// Model run instances: aclmdlRICapture*, replay (aclmdlRIExecute[Async]),
// destruction and a readable dump.
#include <cstdio>

#include "api_common.h"
#include "capture.h"
#include "checker.h"
#include "common/c_boundary.h"

using namespace canopy::runtime;

namespace {

const char* KindName(TaskKind kind) {
  switch (kind) {
    case TaskKind::kCompute:
      return "compute";
    case TaskKind::kHostFunc:
      return "host function";
    case TaskKind::kHostTask:
      return "host task";
    case TaskKind::kReport:
      return "callback";
    case TaskKind::kEventRecord:
      return "event record";
    case TaskKind::kEventReset:
      return "event reset";
    case TaskKind::kEventWait:
      return "event wait";
  }
  return "?";
}

int32_t RunNothing(void*) { return ACL_SUCCESS; }

// A queued replay keeps its model alive and counted until its last task has run
// (or been dropped): the model's payloads are what the replay's tasks use.
struct ReplayHold {
  std::shared_ptr<ModelInstance> model;
};
void FinishReplay(void* payload) {
  ReplayHold* hold = *static_cast<ReplayHold**>(payload);
  ModelTable::Get().EndReplay(*hold->model);
  delete hold;
}

aclError ResolveModel(const char* function, aclmdlRI handle, std::shared_ptr<ModelInstance>& model) {
  if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'modelRI' is null", function);
  model = ModelTable::Get().Find(handle);
  if (model) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'modelRI' (%p) is not a live model", function, handle);
}

// Queues every captured task of the model `handle` names on `stream`, in capture
// order. Payloads stay the model's; events are recorded and waited afresh, as
// the capture saw them.
aclError Replay(const char* function, aclmdlRI handle, const std::shared_ptr<Stream>& target) {
  if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'modelRI' is null", function);
  std::shared_ptr<ModelInstance> model = ModelTable::Get().BeginReplay(handle);
  if (!model) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'modelRI' (%p) is not a live model", function, handle);
  Stream& stream = *target;
  // Checker mode: every range a replayed task touches must still be live (and
  // not race other streams), or the replay is refused before any of it is queued.
  if (Checker::Enabled()) {
    for (const CapturedTask& captured : model->tasks) {
      if (captured.accesses.empty()) continue;
      if (const aclError status = Checker::Get().CheckTask(function, captured.op, target, captured.accesses.data(),
                                                           captured.accesses.size());
          status != ACL_SUCCESS) {
        ModelTable::Get().EndReplay(*model);
        return status;
      }
    }
  }
  // The whole replay is queued at once or not at all: a stream closed meanwhile
  // (aclrtDestroyStream on another thread) runs none of it, and no task another
  // thread queues on the stream lands inside it. The hold is let go after the
  // replay's last task.
  std::vector<Task> tasks;
  tasks.reserve(model->tasks.size() + 1);
  for (const CapturedTask& captured : model->tasks) {
    if (captured.event_internal) continue;  // capture order already satisfies it
    Task task = captured.task;
    task.release = nullptr;
    if (task.event != nullptr) {
      task.event->Retain();
      // A record takes its generation in Stream::EnqueueAll, only if it is queued.
      if (task.kind == TaskKind::kEventWait) task.generation = task.event->LatestRecord();
    }
    tasks.push_back(task);
  }
  tasks.push_back(Task::Compute("aclmdlRIExecuteAsync", RunNothing, new ReplayHold{model}, FinishReplay));
  if (stream.EnqueueAll(tasks)) return ACL_SUCCESS;
  // Nothing of it was queued: let go of what the tasks hold now.
  for (Task& task : tasks) {
    if (task.event != nullptr) task.event->Release();
    if (task.release != nullptr) task.release(task.PayloadPtr());
  }
  return Fail(kInvalidHandle, "%s: the stream is being destroyed", function);
}

}  // namespace

extern "C" {

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) try {
  CANOPY_REQUIRE_INIT();
  if (stream == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureBegin: the default stream cannot be captured");
  }
  if (mode < ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "aclmdlRICaptureBegin: mode %d is not an aclmdlRICaptureMode",
                static_cast<int>(mode));
  }
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  return CaptureRegistry::Get().Begin(*target, mode);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI) try {
  CANOPY_REQUIRE_INIT();
  if (status == nullptr && modelRI == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureGetInfo: 'status' and 'modelRI' are both null");
  }
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  return CaptureRegistry::Get().GetInfo(*target, status, modelRI);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(mode);
  if (*mode < ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || *mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "aclmdlRICaptureThreadExchangeMode: mode %d is not valid",
                static_cast<int>(*mode));
  }
  *mode = CaptureRegistry::ExchangeThreadMode(*mode);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(modelRI);
  if (stream == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureEnd: the default stream cannot be captured");
  }
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  return CaptureRegistry::Get().End(*target, modelRI);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) try {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<ModelInstance> model;
  CANOPY_RETURN_IF_ERROR(ResolveModel(__func__, modelRI, model));
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, target));
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckStreamNotCapturing(__func__, *target));
  return Replay(__func__, modelRI, target);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) try {
  CANOPY_REQUIRE_INIT();
  if (timeout == 0 || timeout < -1) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "aclmdlRIExecute: timeout must be -1 (forever) or > 0 ms, got %d", timeout);
  }
  std::shared_ptr<ModelInstance> model;
  CANOPY_RETURN_IF_ERROR(ResolveModel(__func__, modelRI, model));
  std::shared_ptr<Stream> target;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, nullptr, target));
  CANOPY_RETURN_IF_ERROR(CheckMayWait(__func__, *target));
  CANOPY_RETURN_IF_ERROR(Replay(__func__, modelRI, target));
  return ReportSync(__func__, target->Synchronize(timeout), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIDestroy(aclmdlRI modelRI) try {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<ModelInstance> model;
  CANOPY_RETURN_IF_ERROR(ResolveModel(__func__, modelRI, model));
  int32_t pending = 0;
  if (!ModelTable::Get().Remove(modelRI, &pending)) {
    if (pending > 0) {
      return Fail(ACL_ERROR_RT_MODEL_RUNNING,
                  "aclmdlRIDestroy: %d replay(s) of the model are still queued; synchronise their stream first",
                  pending);
    }
    return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIDestroy: argument 'modelRI' (%p) is not a live model", modelRI);
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) try {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<ModelInstance> model;
  CANOPY_RETURN_IF_ERROR(ResolveModel(__func__, modelRI, model));
  std::printf("aclmdlRI %p: %zu task(s) captured on %d stream(s)\n", modelRI, model->tasks.size(), model->stream_count);
  for (size_t i = 0; i < model->tasks.size(); ++i) {
    const CapturedTask& captured = model->tasks[i];
    std::printf("  #%zu stream %d: %s %s%s\n", i, captured.stream_index, KindName(captured.task.kind),
                captured.task.name, captured.event_internal ? " (within the model)" : "");
  }
  std::fflush(stdout);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
