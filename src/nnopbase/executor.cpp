#include "executor.h"

#include <cstdarg>
#include <cstdio>

#include "acl/acl.h"
#include "canopy/canopy_runtime.h"
#include "common/c_boundary.h"
#include "executor_handles.h"

namespace canopy {
namespace {

// A queued run of an executor: what the task needs when the engine reaches it.
struct Launch {
  aclOpExecutor* executor;
  void* workspace;
  std::vector<void*> slots;  // addresses as bound when phase 2 was called
};

aclnnStatus RunSteps(aclOpExecutor& executor, void* workspace, const std::vector<void*>& slots) {
  const RunContext context(workspace, slots);
  const bool tracing = canopyTraceEnabled() != 0;
  const int64_t begin_ns = tracing ? canopyTraceNowNs() : 0;
  for (const auto& step : executor.plan->steps) {
    const aclnnStatus status = step->Run(context);
    if (status != ACLNN_SUCCESS) return status;
  }
  if (tracing) canopyTraceSpan(executor.op_name, "kernel", begin_ns, canopyTraceNowNs(), executor.trace_args.c_str());
  return ACLNN_SUCCESS;
}

int32_t RunSingle(void* user_data) {
  auto* executor = static_cast<aclOpExecutor*>(user_data);
  return RunSteps(*executor, executor->bound_workspace, executor->slot_addresses);
}

void ReleaseSingle(void* user_data) { ReleaseExecutor(static_cast<aclOpExecutor*>(user_data)); }

int32_t RunRepeated(void* user_data) {
  auto* launch = static_cast<Launch*>(user_data);
  return RunSteps(*launch->executor, launch->workspace, launch->slots);
}

void ReleaseRepeated(void* user_data) {
  auto* launch = static_cast<Launch*>(user_data);
  ReleaseExecutor(launch->executor);
  delete launch;
}

}  // namespace

void ReleaseExecutor(aclOpExecutor* executor) {
  if (executor->references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete executor;
}

}  // namespace canopy

using canopy::ExecutorHandles;
using canopy::ReleaseExecutor;
using canopy::SetErrorMessage;

extern "C" {

void canopyNnopbaseSetErrorMessageV(const char* format, va_list args) try {
  char buffer[1024];
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  canopySetRecentErrMsg(buffer);
}
CANOPY_C_BOUNDARY()

aclnnStatus canopyNnopbasePublishExecutor(aclOpExecutor* executor, aclOpExecutor** handle) try {
  *handle = ExecutorHandles::Get().Publish(executor);
  if (*handle != nullptr) return ACLNN_SUCCESS;
  SetErrorMessage("%s: no executor handle is left: %s", executor->op_name,
                  "a client holds about a million executors (repeatable ones never destroyed?)");
  delete executor;
  return ACLNN_ERR_INNER_CREATE_EXECUTOR;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus canopyNnopbaseLaunchExecutor(const char* op_name, void* workspace, uint64_t workspace_size,
                                         aclOpExecutor* handle, aclrtStream stream) try {
  if (handle == nullptr) {
    SetErrorMessage("%s: argument 'executor' is null", op_name);
    return ACLNN_ERR_PARAM_NULLPTR;
  }
  // A non-repeatable executor is consumed by this call whatever happens: its
  // handle dies here and this call owns the client's reference. A repeatable
  // one is borrowed, so that a concurrent aclDestroyAclOpExecutor cannot free it
  // under this call.
  bool consumed = false;
  const char* why = "";
  aclOpExecutor* executor = ExecutorHandles::Get().LaunchOrBorrow(handle, &consumed, &why);
  if (executor == nullptr) {
    SetErrorMessage("%s: argument 'executor' %s", op_name, why);
    return ACLNN_ERR_PARAM_INVALID;
  }
  const auto finish = [&](aclnnStatus status) {
    ReleaseExecutor(executor);
    return status;
  };
  if (workspace_size > 0 && workspace == nullptr) {
    SetErrorMessage("%s: workspaceSize is %llu but workspace is null", op_name,
                    static_cast<unsigned long long>(workspace_size));
    return finish(ACLNN_ERR_PARAM_NULLPTR);
  }
  if (workspace_size < executor->plan->workspace_size) {
    SetErrorMessage("%s: workspaceSize %llu is smaller than the %llu bytes phase 1 asked for", op_name,
                    static_cast<unsigned long long>(workspace_size),
                    static_cast<unsigned long long>(executor->plan->workspace_size));
    return finish(ACLNN_ERR_PARAM_INVALID);
  }
  if (executor->plan->steps.empty()) return finish(ACLNN_SUCCESS);  // e.g. an empty tensor: nothing to do
  // Always, cheaply: a tensor with bytes to read or write must have an address
  // (one created with null data and never rebound, or rebound to null, ran into
  // the kernel and crashed the process; the checker below sees the rest).
  for (const canopy::TensorAccess& access : executor->plan->accesses) {
    if (access.end > access.begin && executor->slot_addresses[access.slot] == nullptr) {
      SetErrorMessage("%s: tensor '%s' has a null device address", op_name, access.argument);
      return finish(ACLNN_ERR_PARAM_NULLPTR);
    }
  }
  const canopy::AfterRun* after_run = executor->plan->after_run.get();
  if (after_run != nullptr) {
    // Its outputs' shapes are written once the run is over: nothing to capture
    // (refused before the checker keeps accesses for a captured task).
    aclmdlRICaptureStatus capture = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI model = nullptr;
    if (aclmdlRICaptureGetInfo(stream, &capture, &model) == ACL_SUCCESS &&
        capture != ACL_MODEL_RI_CAPTURE_STATUS_NONE) {
      SetErrorMessage("%s cannot be captured into a graph: its outputs' shapes are known only after it runs", op_name);
      return finish(ACLNN_ERR_RUNTIME_ERROR);
    }
  }
  if (canopyCheckEnabled() != 0) {
    std::vector<canopyMemoryAccess> accesses;
    accesses.reserve(executor->plan->accesses.size() + 1);
    for (const canopy::TensorAccess& access : executor->plan->accesses) {
      const char* base = static_cast<const char*>(executor->slot_addresses[access.slot]);
      accesses.push_back(
          {base + access.begin, static_cast<size_t>(access.end - access.begin), access.write ? 1 : 0, access.argument});
    }
    if (executor->plan->workspace_size > 0) {
      accesses.push_back({workspace, static_cast<size_t>(executor->plan->workspace_size), 1, "workspace"});
    }
    // Named as the task is (a capture keeps the accesses for the task of that name).
    if (canopyCheckAccesses(stream, executor->op_name, accesses.data(), accesses.size()) != ACL_SUCCESS) {
      return finish(ACLNN_ERR_PARAM_INVALID);
    }
  }
  if (after_run != nullptr) {
    executor->references.fetch_add(1, std::memory_order_relaxed);  // this call's, until the shapes are written
  }
  const int64_t begin_ns = canopyTraceEnabled() != 0 ? canopyTraceNowNs() : 0;
  const char* name = executor->op_name;
  const std::vector<void*> slots = after_run != nullptr ? executor->slot_addresses : std::vector<void*>{};

  // The queued task takes over this call's reference (the client's or the borrowed one).
  aclError queued = ACL_SUCCESS;
  if (consumed) {
    executor->bound_workspace = workspace;
    queued = canopyLaunchTask(stream, name, canopy::RunSingle, canopy::ReleaseSingle, executor);
    if (queued != ACL_SUCCESS) ReleaseExecutor(executor);
  } else {
    auto* launch = new canopy::Launch{executor, workspace, executor->slot_addresses};
    queued = canopyLaunchTask(stream, name, canopy::RunRepeated, canopy::ReleaseRepeated, launch);
    if (queued != ACL_SUCCESS) canopy::ReleaseRepeated(launch);
  }
  if (queued != ACL_SUCCESS) {
    if (after_run != nullptr) ReleaseExecutor(executor);
    SetErrorMessage("%s: could not enqueue on the stream (acl error %d)", op_name, queued);
    return ACLNN_ERR_RUNTIME_ERROR;
  }
  aclnnStatus status = ACLNN_SUCCESS;
  if (after_run != nullptr) {
    if (const aclError synced = aclrtSynchronizeStream(stream); synced != ACL_SUCCESS) {
      const char* why = aclGetRecentErrMsg();
      SetErrorMessage("%s: the run failed (acl error %d): %s", op_name, synced, why != nullptr ? why : "");
      status = ACLNN_ERR_RUNTIME_ERROR;
    } else {
      status = after_run->Finish(canopy::RunContext(workspace, slots));
    }
    ReleaseExecutor(executor);
  }
  if (begin_ns != 0) canopyTraceSpan(name, "phase2", begin_ns, canopyTraceNowNs(), nullptr);
  return status;
}
CANOPY_C_BOUNDARY_ACLNN

}  // extern "C"
