// The parts of phase 1 every op shares, compiled once (see aclnn_op.h).
#include "aclnn_op.h"

namespace canopy::ops::detail {

aclnnStatus CheckTensor(Plan& plan, const canopyOpInfo& op, const char* name, const aclTensor* tensor) {
  if (op.privateFormats == 0) CANOPY_CHECK(plan.CheckPlainFormat(name, tensor));
  CANOPY_CHECK(plan.CheckRank(name, tensor, 0, op.maxRank));
  return plan.CheckViewRepresentable(tensor);
}

aclnnStatus FinishPhase1(Plan& plan, PlanKey& key, uint64_t* workspace_size, aclOpExecutor** executor,
                         aclnnStatus (*plan_steps)(Plan&, const void*), const void* context, bool tracing,
                         int64_t begin_ns) {
  const char* op_name = plan.op();
  const bool cacheable = PlanCacheEnabled();
  if (cacheable) AddOverlapPattern(key);
  const auto traced = [&](bool cache_hit) {
    if (!tracing) return;
    (*executor)->trace_args = TraceArgs(key, cache_hit);
    canopyTraceSpan(op_name, "phase1", begin_ns, canopyTraceNowNs(), (*executor)->trace_args.c_str());
  };
  if (cacheable) {
    if (auto cached = PlanCache::Get().Find(key)) {
      *executor = PlanCache::Instantiate(op_name, *cached, key);
      *workspace_size = cached->plan->workspace_size;
      if (VerboseEnabled()) std::fprintf(stderr, "canopy: %sGetWorkspaceSize: plan cache hit\n", op_name);
      traced(true);
      return ACLNN_SUCCESS;
    }
  }
  if (aclnnStatus s = plan_steps(plan, context); s != ACLNN_SUCCESS) return s;
  *executor = plan.Finish(workspace_size);
  // Other threads read the plan from the moment it is in the cache, so it is
  // finished (Finish writes its workspace size) before it is published.
  if (cacheable) {
    if (auto cached = plan.ToCachedPlan(key)) PlanCache::Get().Insert(key, std::move(cached));
  }
  traced(false);
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops::detail
