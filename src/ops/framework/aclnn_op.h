// The two C entry points of every op. Phase 1 runs the op's recipe on a Plan
// behind the checks and the plan cache every op shares; phase 2 is the same one
// line for all ops.
#pragma once

#include <cstdio>
#include <type_traits>

#include "canopy/canopy_runtime.h"
#include "overlap.h"
#include "plan.h"

namespace canopy::ops {

template <typename T>
bool IsNullPointer(const T& argument) {
  if constexpr (std::is_pointer_v<T>) {
    return argument == nullptr;
  } else {
    return false;
  }
}

// Every tensor argument's view must be addressable before any recipe looks at it.
template <typename T>
aclnnStatus CheckRepresentable(Plan& plan, const T& argument) {
  if constexpr (std::is_pointer_v<T>) {
    using Pointee = std::remove_cv_t<std::remove_pointer_t<T>>;
    if constexpr (std::is_same_v<Pointee, aclTensor>) {
      if (argument != nullptr) return plan.CheckViewRepresentable(argument);
    }
  }
  return ACLNN_SUCCESS;
}

template <typename T>
void AddToKey(PlanKey& key, const T& argument) {
  if constexpr (std::is_pointer_v<T>) {
    using Pointee = std::remove_cv_t<std::remove_pointer_t<T>>;
    static_assert(std::is_same_v<Pointee, aclTensor> || std::is_same_v<Pointee, aclScalar>,
                  "phase-1 arguments are tensors, scalars or integral attributes");
    key.Add(static_cast<const Pointee*>(argument));
  } else {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>);
    key.Add(static_cast<int64_t>(argument));
  }
}

// Runs phase 1: the output-pointer checks, then a plan-cache lookup keyed by
// `arguments` (every input of the op that the recipe reads), then the recipe.
template <typename Recipe, typename... Arguments>
aclnnStatus RunPhase1(const char* op_name, uint64_t* workspace_size, aclOpExecutor** executor, Recipe&& recipe,
                      const Arguments&... arguments) {
  const bool tracing = canopyTraceEnabled() != 0;
  const int64_t begin_ns = tracing ? canopyTraceNowNs() : 0;
  Plan plan(op_name);
  if (aclnnStatus s = plan.CheckNotNull("workspaceSize", workspace_size); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = plan.CheckNotNull("executor", executor); s != ACLNN_SUCCESS) return s;
  // Null arguments are the recipe's to report (161001), before any view is looked at.
  bool any_null = false;
  ((any_null = any_null || IsNullPointer(arguments)), ...);
  aclnnStatus representable = ACLNN_SUCCESS;
  if (!any_null) {
    ((representable = representable != ACLNN_SUCCESS ? representable : CheckRepresentable(plan, arguments)), ...);
  }
  if (representable != ACLNN_SUCCESS) return representable;
  // One key per thread, reused: its buffers keep their capacity, so a hit
  // allocates only the executor. (No recipe runs another op's phase 1.)
  thread_local PlanKey key;
  key.Reset(op_name);
  const bool cacheable = PlanCacheEnabled();
  if (cacheable || tracing) (AddToKey(key, arguments), ...);
  if (cacheable) AddOverlapPattern(key);
  // The client gets a handle to the executor, not its address (nnopbase/executor_handles.h).
  const auto publish = [&](aclOpExecutor* created, bool cache_hit) {
    if (tracing) {
      created->trace_args = TraceArgs(key, cache_hit);
      canopyTraceSpan(op_name, "phase1", begin_ns, canopyTraceNowNs(), created->trace_args.c_str());
    }
    return PublishExecutor(created, executor);
  };
  if (cacheable) {
    if (auto cached = PlanCache::Get().Find(key)) {
      *workspace_size = cached->plan->workspace_size;
      if (VerboseEnabled()) std::fprintf(stderr, "canopy: %sGetWorkspaceSize: plan cache hit\n", op_name);
      return publish(PlanCache::Instantiate(op_name, *cached, key), true);
    }
  }
  if (aclnnStatus s = recipe(plan); s != ACLNN_SUCCESS) return s;
  aclOpExecutor* created = plan.Finish(workspace_size);
  // Other threads read the plan from the moment it is in the cache, so it is
  // finished (Finish writes its workspace size) before it is published.
  if (cacheable) {
    if (auto cached = plan.ToCachedPlan(key)) PlanCache::Get().Insert(key, std::move(cached));
  }
  return publish(created, false);
}

}  // namespace canopy::ops

// Defines aclnn<Name>(workspace, workspaceSize, executor, stream).
#define CANOPY_ACLNN_PHASE2(Name)                                                                      \
  extern "C" aclnnStatus aclnn##Name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, \
                                     aclrtStream stream) {                                             \
    return ::canopy::LaunchExecutor("aclnn" #Name, workspace, workspaceSize, executor, stream);        \
  }

// Returns from the enclosing recipe when a check fails.
#define CANOPY_CHECK(expr)                                                                      \
  do {                                                                                          \
    if (const aclnnStatus canopy_check_status_ = (expr); canopy_check_status_ != ACLNN_SUCCESS) \
      return canopy_check_status_;                                                              \
  } while (0)
