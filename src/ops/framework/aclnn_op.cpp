// The parts of phase 1 every op shares, compiled once (see aclnn_op.h).
#include "aclnn_op.h"

#include <cstdio>

namespace canopy::ops::detail {

aclnnStatus CheckTensor(Plan& plan, const canopyOpInfo& op, const char* name, const aclTensor* tensor) {
  if (op.privateFormats == 0) CANOPY_CHECK(plan.CheckPlainFormat(name, tensor));
  CANOPY_CHECK(plan.CheckRank(name, tensor, 0, op.maxRank));
  return plan.CheckViewRepresentable(tensor);
}

aclnnStatus RejectNullElement(Plan& plan, const char* name, size_t index) {
  return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument '%s' element %zu is null", name, index);
}

aclnnStatus CheckTensorList(Plan& plan, const canopyOpInfo& op, const char* name, const aclTensorList* list) {
  for (size_t i = 0; i < list->tensors.size(); ++i) {
    // The message names the list and the element: "'tensors[2]' has private format ...".
    char element[96];
    std::snprintf(element, sizeof element, "%s[%zu]", name, i);
    CANOPY_CHECK(CheckTensor(plan, op, element, list->tensors[i]));
  }
  return ACLNN_SUCCESS;
}

namespace {

void Traced(const char* op_name, const PlanKey& key, aclOpExecutor* executor, bool cache_hit, int64_t begin_ns) {
  executor->trace_args = TraceArgs(key, cache_hit);
  canopyTraceSpan(op_name, "phase1", begin_ns, canopyTraceNowNs(), executor->trace_args.c_str());
}

}  // namespace

void ReportCacheHit(const Plan& plan, const PlanKey& key, aclOpExecutor* executor, bool tracing, int64_t begin_ns) {
  if (VerboseEnabled()) std::fprintf(stderr, "canopy: %sGetWorkspaceSize: plan cache hit\n", plan.op());
  if (tracing) Traced(plan.op(), key, executor, true, begin_ns);
}

aclnnStatus PlanAndPublish(Plan& plan, const PlanKey& key, uint64_t* workspace_size, aclOpExecutor** executor,
                           aclnnStatus (*plan_steps)(Plan&, const void*), const void* context, bool cacheable,
                           bool tracing, int64_t begin_ns) {
  if (aclnnStatus s = plan_steps(plan, context); s != ACLNN_SUCCESS) return s;
  aclOpExecutor* created = plan.Finish(workspace_size);
  if (created == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "the workspace for the call's intermediates exceeds the address space (a view of more "
                       "elements than memory can hold?)");
  }
  // Other threads read the plan from the moment it is in the cache, so it is
  // finished (Finish writes its workspace size) before it is published.
  if (cacheable) {
    if (auto cached = plan.ToCachedPlan(key)) PlanCache::Get().Insert(key, std::move(cached));
  }
  if (tracing) Traced(plan.op(), key, created, false, begin_ns);
  // The client gets a handle to the executor, not its address (nnopbase/executor_handles.h).
  return PublishExecutor(created, executor);
}

}  // namespace canopy::ops::detail
