#include "stream_task.h"

#include <atomic>
#include <string>

#include "canopy/canopy_runtime.h"
#include "error.h"
#include "sigpipe_guard.h"

namespace canopy::hccl {
namespace {

// The stream error of a failed operation: on hardware a collective that
// loses its peers surfaces as a suspected remote error at synchronisation.
constexpr aclError kStreamErrorOfFailure = ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;

// Shared by the host function and the status task; freed by whichever of
// them finishes last.
struct Operation {
  const char* name = "";
  std::shared_ptr<Communicator> comm;
  std::function<void(Transport&)> work;
  HcclResult result = HCCL_SUCCESS;
  std::string message;
  std::atomic<int> references{2};
};

void Release(Operation* operation) {
  if (operation->references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete operation;
}

void RunOperation(void* data) {
  auto* operation = static_cast<Operation*>(data);
  operation->result = RunNow(*operation->comm, operation->work, operation->message);
  // The work (and the client buffers it refers to) is done with.
  operation->work = nullptr;
  Release(operation);
}

int32_t ReportStatus(void* data) {
  auto* operation = static_cast<Operation*>(data);
  if (operation->result == HCCL_SUCCESS) return ACL_SUCCESS;
  char text[1200];
  std::snprintf(text, sizeof(text), "%s on communicator %s (rank %u of %u) failed with %s: %s", operation->name,
                operation->comm->name().c_str(), operation->comm->rank(), operation->comm->size(),
                ResultName(operation->result), operation->message.c_str());
  canopySetRecentErrMsg(text);
  return kStreamErrorOfFailure;
}

void ReleaseOperation(void* data) { Release(static_cast<Operation*>(data)); }

}  // namespace

HcclResult RunNow(Communicator& comm, const std::function<void(Transport&)>& work, std::string& message) {
  std::string earlier;
  if (const HcclResult failed = comm.async_error(&earlier); failed != HCCL_SUCCESS) {
    message = "the communicator failed earlier: " + earlier;
    return failed;
  }
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
  auto* operation = new Operation;
  operation->name = name;
  operation->comm = std::move(comm);
  operation->work = std::move(work);
  if (const aclError status = aclrtLaunchHostFunc(stream, RunOperation, operation); status != ACL_SUCCESS) {
    delete operation;
    Throw(HCCL_E_RUNTIME, "the stream refused the operation (aclrtLaunchHostFunc returned %d)", status);
  }
  if (const aclError status = canopyLaunchTask(stream, name, ReportStatus, ReleaseOperation, operation);
      status != ACL_SUCCESS) {
    // The host function is queued and will drop its own reference.
    Release(operation);
    Throw(HCCL_E_RUNTIME, "the stream refused the operation's status task (%d)", status);
  }
  return HCCL_SUCCESS;
}

}  // namespace canopy::hccl
