// Canopy's own runtime extensions (include/canopy/canopy_runtime.h).
#include "api_common.h"
#include "caching_allocator.h"
#include "canopy/canopy_engine.h"
#include "canopy/canopy_runtime.h"
#include "checker.h"
#include "common/c_boundary.h"
#include "engine.h"
#include "host_task.h"
#include "memory_registry.h"
#include "slog.h"
#include "trace.h"

using namespace canopy::runtime;

namespace {

struct UserTask {
  canopyTaskFn run;
  canopyTaskRelease release;
  void* user_data;
};

int32_t RunUserTask(void* payload) {
  const auto& task = *static_cast<UserTask*>(payload);
  return task.run(task.user_data);
}

void ReleaseUserTask(void* payload) {
  const auto& task = *static_cast<UserTask*>(payload);
  if (task.release != nullptr) task.release(task.user_data);
}

}  // namespace

extern "C" {

aclError canopyLaunchTask(aclrtStream stream, const char* name, canopyTaskFn run, canopyTaskRelease release,
                          void* userData) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(run);
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  Task task = Task::Compute(name != nullptr ? name : "canopyLaunchTask", RunUserTask, UserTask{run, release, userData},
                            ReleaseUserTask);
  return Submit(__func__, *queue, task);
}
CANOPY_C_BOUNDARY_ACL

aclError canopyLaunchHostTask(aclrtStream stream, const char* name, canopyTaskFn run, canopyTaskRelease release,
                              void* userData) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(run);
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  Task task = Task::Compute(name != nullptr ? name : "canopyLaunchHostTask", RunUserTask,
                            UserTask{run, release, userData}, ReleaseUserTask);
  task.kind = TaskKind::kHostTask;
  if (aclError status; CaptureRegistry::Get().Record(__func__, *queue, task, &status)) return status;
  if (EnqueueHostTask(queue, task)) return ACL_SUCCESS;
  return Fail(kInvalidHandle, "%s: argument 'stream' (%p) is being destroyed", __func__, queue->handle());
}
CANOPY_C_BOUNDARY_ACL

void canopySetRecentErrMsg(const char* message) try { SetRecentError(message != nullptr ? message : ""); }
CANOPY_C_BOUNDARY()

int canopyLogEnabled(int level) try {
  return level >= 0 && level <= 3 && LogEnabled(static_cast<LogLevel>(level)) ? 1 : 0;
}
CANOPY_C_BOUNDARY(0)

void canopyLog(int level, const char* module, const char* message) try {
  if (level < 0 || level > 3 || message == nullptr) return;
  Log(static_cast<LogLevel>(level), module != nullptr ? module : "CANOPY", message);
}
CANOPY_C_BOUNDARY()

int canopyIsDeviceMemory(const void* ptr, size_t bytes) try {
  return MemoryRegistry::Get().IsDeviceRange(ptr, bytes) ? 1 : 0;
}
CANOPY_C_BOUNDARY({})

int canopyOnEngineThread(void) try { return Engine::CurrentThreadIsEngine() ? 1 : 0; }
CANOPY_C_BOUNDARY({})

int32_t canopyEngineDevice(void) try { return Engine::CurrentThreadDevice(); }
CANOPY_C_BOUNDARY(-1)

int canopyDeterministicMode(void) try {
  return static_cast<int>(Runtime::Get().sys_params[ACL_OPT_DETERMINISTIC].load());
}
CANOPY_C_BOUNDARY({})

void canopyPrepareComputeTeam(void) try { Engine::PrepareComputeTeam(); }
CANOPY_C_BOUNDARY()

aclError canopyMallocAsync(void** ptr, size_t size, aclrtStream stream) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(ptr);
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "canopyMallocAsync: argument 'size' is 0");
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  return CachingAllocator::Get().Allocate(ptr, size, *queue);
}
CANOPY_C_BOUNDARY_ACL

aclError canopyFreeAsync(void* ptr, aclrtStream stream) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(ptr);
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  return CachingAllocator::Get().Free(ptr, *queue);
}
CANOPY_C_BOUNDARY_ACL

aclError canopyReleaseCachedMemory(void) try {
  CANOPY_REQUIRE_INIT();
  // Cached blocks become free once the streams that freed them pass the free;
  // errors of that work stay on their streams for the client's next synchronisation.
  if (const auto context = Runtime::Get().current_context()) {
    const auto streams = Runtime::Get().StreamsOfDevice(context->device().id());
    for (const auto& stream : streams) CANOPY_RETURN_IF_ERROR(CheckMayWait(__func__, *stream));
    for (const auto& stream : streams) stream->Synchronize(-1, /*consume_error=*/false);
  }
  CachingAllocator::Get().ReleaseCached();
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

int canopyTraceEnabled(void) try { return Tracer::Enabled() ? 1 : 0; }
CANOPY_C_BOUNDARY({})

int64_t canopyTraceNowNs(void) try { return NowNs(); }
CANOPY_C_BOUNDARY({})

void canopyTraceSpan(const char* name, const char* category, int64_t beginNs, int64_t endNs, const char* argsJson) try {
  if (!Tracer::Enabled() || name == nullptr || category == nullptr) return;
  Tracer::Get().Span(name, category, Tracer::CurrentTrack(), beginNs, endNs, argsJson != nullptr ? argsJson : "");
}
CANOPY_C_BOUNDARY()

int canopyCheckEnabled(void) try { return Checker::Enabled() ? 1 : 0; }
CANOPY_C_BOUNDARY({})

void canopySetCheckMode(int mode) try { Checker::SetMode(mode < 0 ? 0 : mode > 2 ? 2 : mode); }
CANOPY_C_BOUNDARY()

aclError canopyCheckAccesses(aclrtStream stream, const char* opName, const canopyMemoryAccess* accesses,
                             size_t count) try {
  if (!Checker::Enabled()) return ACL_SUCCESS;
  CANOPY_REQUIRE_INIT();
  if (accesses == nullptr && count > 0) CANOPY_REQUIRE_NOT_NULL(accesses);
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  std::vector<MemoryAccess> converted(count);
  for (size_t i = 0; i < count; ++i) {
    converted[i] = {reinterpret_cast<uintptr_t>(accesses[i].begin), accesses[i].bytes, accesses[i].write != 0,
                    accesses[i].argument != nullptr ? accesses[i].argument : "?"};
  }
  const char* op = opName != nullptr ? opName : "task";
  return Checker::Get().CheckTask(op, op, queue, converted.data(), converted.size());
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
