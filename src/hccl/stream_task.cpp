#include "stream_task.h"

#include <cstdio>
#include <string>

#include "canopy/canopy_runtime.h"
#include "error.h"
#include "sigpipe_guard.h"

namespace canopy::hccl {
namespace {

// The stream error of a failed operation: on hardware a collective that
// loses its peers surfaces as a suspected remote error at synchronisation.
constexpr aclError kStreamErrorOfFailure = ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;

// What a queued operation needs when it runs; freed by its release, which
// comes only when nothing can run it again: a captured operation is replayed
// (several times, perhaps on several streams at once) from this same object.
struct Operation {
  const char* name = "";
  std::shared_ptr<Communicator> comm;
  std::function<void(Transport&)> work;
};

// The operation as a host task (canopyLaunchHostTask): its network waits
// happen on a host thread, never on the device engine, and a client that
// synchronises the stream right after queuing runs it on its own thread.
int32_t RunOperation(void* data) {
  const auto* operation = static_cast<const Operation*>(data);
  std::string message;
  const HcclResult result = RunNow(*operation->comm, operation->work, message);
  if (result == HCCL_SUCCESS) return ACL_SUCCESS;
  char text[1200];
  std::snprintf(text, sizeof(text), "%s on communicator %s (rank %u of %u) failed with %s: %s", operation->name,
                operation->comm->name().c_str(), operation->comm->rank(), operation->comm->size(), ResultName(result),
                message.c_str());
  canopySetRecentErrMsg(text);
  return kStreamErrorOfFailure;
}

void ReleaseOperation(void* data) { delete static_cast<Operation*>(data); }

}  // namespace

HcclResult RunNow(Communicator& comm, const std::function<void(Transport&)>& work, std::string& message) {
  std::string earlier;
  if (const HcclResult failed = comm.async_error(&earlier); failed != HCCL_SUCCESS) {
    message = "the communicator failed earlier: " + earlier;
    return failed;
  }
  if (!comm.TryBegin()) {
    // Not recorded as the communicator's error: the operation already running
    // is sound and finishes; this one fails, and its peers' time out.
    message =
        "another operation of this communicator is running on this rank (the communicator is used from two "
        "streams at once); its operations must run one after another, in the same order on every rank";
    return HCCL_E_INTERNAL;
  }
  struct EndOnExit {
    Communicator& comm;
    ~EndOnExit() { comm.End(); }
  } end_on_exit{comm};
  try {
    const SigpipeGuard no_sigpipe;
    work(comm.transport());
    return HCCL_SUCCESS;
  } catch (...) {
    const HcclResult result = StatusOfCurrentException(message);
    comm.SetAsyncError(result, message);
    return result;
  }
}

HcclResult Enqueue(const char* name, std::shared_ptr<Communicator> comm, aclrtStream stream,
                   std::function<void(Transport&)> work) {
  auto* operation = new Operation{name, std::move(comm), std::move(work)};
  if (const aclError status = canopyLaunchHostTask(stream, name, RunOperation, ReleaseOperation, operation);
      status != ACL_SUCCESS) {
    delete operation;
    Throw(HCCL_E_RUNTIME, "the stream refused the operation (canopyLaunchHostTask returned %d)", status);
  }
  return HCCL_SUCCESS;
}

}  // namespace canopy::hccl
