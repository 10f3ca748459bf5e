// Host functions and the subscribe/launch/process callback protocol.
#include <pthread.h>

#include "api_common.h"
#include "common/c_boundary.h"
#include "report_router.h"

using namespace canopy::runtime;

extern "C" {

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(fn);
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  Task task;
  task.kind = TaskKind::kHostFunc;
  task.name = "aclrtLaunchHostFunc";
  task.host_fn = fn;
  task.Payload<void*>() = args;
  return Submit(__func__, *queue, task);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) try {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  if (!ReportRouter::Get().Subscribe(threadId, queue->device_id())) {
    return Fail(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                "aclrtSubscribeReport: thread %llu already serves streams of another device; one thread serves "
                "the streams of one device only",
                static_cast<unsigned long long>(threadId));
  }
  if (!queue->SubscribeReportThread(threadId)) {
    ReportRouter::Get().Unsubscribe(threadId);
    return Fail(ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtSubscribeReport: the stream is already subscribed by thread %llu",
                static_cast<unsigned long long>(queue->report_thread()));
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) try {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  if (threadId == 0 || queue->report_thread() != threadId) {
    return Fail(ACL_ERROR_RT_STREAM_NO_CB_REG, "aclrtUnSubscribeReport: thread %llu is not subscribed to this stream",
                static_cast<unsigned long long>(threadId));
  }
  // Callbacks already launched on the stream reach the thread before the
  // subscription ends; it still runs them in aclrtProcessReport.
  CANOPY_RETURN_IF_ERROR(CheckMayWait(__func__, *queue));
  if (static_cast<uint64_t>(pthread_self()) == threadId) {
    // The subscribed thread itself: nobody else runs the callbacks due to it,
    // so it runs them while it waits (a blocking one would otherwise hold the
    // stream, and this wait, forever).
    constexpr int64_t kPollMs = 1;
    while (queue->Synchronize(kPollMs, /*consume_error=*/false).kind == SyncResult::Kind::kTimeout) {
      ReportRouter::Get().ProcessOne(threadId, kPollMs);
    }
  } else {
    queue->Synchronize(-1, /*consume_error=*/false);
  }
  queue->EndReportSubscription();
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) try {
  CANOPY_REQUIRE_INIT();
  if (fn == nullptr) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtLaunchCallback: argument 'fn' is null");
  }
  if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtLaunchCallback: argument 'blockType' (%d) is not ACL_CALLBACK_NO_BLOCK or "
                "ACL_CALLBACK_BLOCK",
                static_cast<int>(blockType));
  }
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  if (queue->report_thread() == 0) {
    return Fail(ACL_ERROR_RT_STREAM_NO_CB_REG,
                "aclrtLaunchCallback: no thread is subscribed to the stream (call "
                "aclrtSubscribeReport first)");
  }
  Task task;
  task.kind = TaskKind::kReport;
  task.name = "aclrtLaunchCallback";
  task.host_fn = fn;
  task.blocking = blockType == ACL_CALLBACK_BLOCK;
  task.Payload<void*>() = userData;
  return Submit(__func__, *queue, task);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtProcessReport(int32_t timeout) try {
  CANOPY_REQUIRE_INIT();
  if (timeout == 0 || timeout < -1) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtProcessReport: argument 'timeout' must be -1 (forever) or > 0 ms, got %d", timeout);
  }
  const auto self = static_cast<uint64_t>(pthread_self());
  switch (ReportRouter::Get().ProcessOne(self, timeout)) {
    case ReportRouter::ProcessResult::kProcessed:
      return ACL_SUCCESS;
    case ReportRouter::ProcessResult::kTimeout:
      return Fail(ACL_ERROR_RT_REPORT_TIMEOUT, "aclrtProcessReport: no callback arrived within %d ms", timeout);
    case ReportRouter::ProcessResult::kNotSubscribed:
      return Fail(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                  "aclrtProcessReport: the calling thread is not subscribed to any stream "
                  "(aclrtSubscribeReport)");
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
