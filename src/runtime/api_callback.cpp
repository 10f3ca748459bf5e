// Host functions and the subscribe/launch/process callback protocol.
#include <pthread.h>

#include "api_common.h"
#include "report_router.h"

using namespace canopy::runtime;

extern "C" {

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(fn);
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  Task task;
  task.kind = TaskKind::kHostFunc;
  task.name = "aclrtLaunchHostFunc";
  task.host_fn = fn;
  task.Payload<void*>() = args;
  queue->Enqueue(task);
  return ACL_SUCCESS;
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  if (queue->report_thread() != 0) {
    return Fail(ACL_ERROR_REPEAT_SUBSCRIBE,
                "aclrtSubscribeReport: the stream is already subscribed by thread %llu",
                static_cast<unsigned long long>(queue->report_thread()));
  }
  ReportRouter::Get().Subscribe(threadId);
  queue->set_report_thread(threadId);
  return ACL_SUCCESS;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  if (queue->report_thread() != threadId) {
    return Fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE,
                "aclrtUnSubscribeReport: thread %llu is not subscribed to this stream",
                static_cast<unsigned long long>(threadId));
  }
  // Callbacks already launched on the stream are delivered before the subscription ends.
  queue->Synchronize(-1);
  queue->set_report_thread(0);
  ReportRouter::Get().Unsubscribe(threadId);
  return ACL_SUCCESS;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(fn);
  if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: blockType %d is not valid",
                static_cast<int>(blockType));
  }
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  if (queue->report_thread() == 0) {
    return Fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE,
                "aclrtLaunchCallback: no thread is subscribed to the stream (aclrtSubscribeReport)");
  }
  Task task;
  task.kind = TaskKind::kReport;
  task.name = "aclrtLaunchCallback";
  task.host_fn = fn;
  task.blocking = blockType == ACL_CALLBACK_BLOCK;
  task.Payload<void*>() = userData;
  queue->Enqueue(task);
  return ACL_SUCCESS;
}

aclError aclrtProcessReport(int32_t timeout) {
  CANOPY_REQUIRE_INIT();
  if (timeout < -1) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtProcessReport: timeout must be -1 (forever) or >= 0 ms, got %d", timeout);
  }
  const auto self = static_cast<uint64_t>(pthread_self());
  switch (ReportRouter::Get().ProcessOne(self, timeout)) {
    case ReportRouter::ProcessResult::kProcessed:
      return ACL_SUCCESS;
    case ReportRouter::ProcessResult::kTimeout:
      return Fail(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, "aclrtProcessReport: no callback arrived within %d ms",
                  timeout);
    case ReportRouter::ProcessResult::kNotSubscribed:
      return Fail(ACL_ERROR_THREAD_NOT_SUBSCRIBE,
                  "aclrtProcessReport: the calling thread is not subscribed to any stream");
  }
  return ACL_SUCCESS;
}

}  // extern "C"
