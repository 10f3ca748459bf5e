// aclOpExecutor: what phase 1 planned, as a table of steps that phase 2 runs on
// a stream. Steps address memory through slots (the storage base of each tensor
// the op was given, which aclSet*TensorAddr may rebind) and the workspace.
#pragma once

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "meta_objects.h"

#define CANOPY_EXPORT __attribute__((visibility("default")))

namespace canopy {

// Where an operand's first byte lives: a slot's base address (or the
// workspace when slot == kWorkspaceSlot) plus a byte offset.
struct BufferRef {
  static constexpr int32_t kWorkspaceSlot = -1;
  int32_t slot = kWorkspaceSlot;
  int64_t byte_offset = 0;
};

class RunContext {
 public:
  RunContext(void* workspace, const std::vector<void*>& slots) : workspace_(workspace), slots_(slots) {}
  char* Resolve(BufferRef ref) const {
    char* base = static_cast<char*>(ref.slot == BufferRef::kWorkspaceSlot ? workspace_ : slots_[ref.slot]);
    return base + ref.byte_offset;
  }

 private:
  void* workspace_;
  const std::vector<void*>& slots_;
};

// One unit of planned work. Run() may only compute: every decision was made in phase 1.
class Step {
 public:
  virtual ~Step() = default;
  // Returns ACLNN_SUCCESS or a status, after setting the recent error message.
  virtual aclnnStatus Run(const RunContext& context) const = 0;
  // One line for CANOPY_VERBOSE and error messages: kernel and shapes.
  virtual std::string Describe() const = 0;
};

// The bytes a tensor argument's view spans, relative to its slot's address:
// what checker mode verifies against live allocations and other streams.
struct TensorAccess {
  int32_t slot = 0;
  int64_t begin = 0;
  int64_t end = 0;
  bool write = false;
  const char* argument = "";
};

// A parameter of the op's prototype as the executor-reuse API numbers them:
// a tensor is one slot, a tensor list one slot per element (-1: was null).
struct ParameterSlots {
  bool is_list = false;
  std::vector<int32_t> slots;
};

// What phase 2 does on the calling thread once the run has finished, for ops
// whose outputs' shapes are known only then (Nonzero, Unique): it rewrites
// their view shapes from what the steps left in the workspace, as CANN's
// runtime does after such an op. Phase 2 of these ops waits for their stream.
class AfterRun {
 public:
  virtual ~AfterRun() = default;
  // Returns ACLNN_SUCCESS or a status, after setting the recent error message.
  virtual aclnnStatus Finish(const RunContext& context) const = 0;
};

// What phase 1 planned, immutable once planned: the plan cache hands one to
// every executor of an identical call, so a cache hit copies nothing but a pointer.
struct ExecutorPlan {
  std::vector<std::unique_ptr<const Step>> steps;
  // Null for every op whose phase 2 only queues its work (all but a few).
  std::unique_ptr<const AfterRun> after_run;
  uint64_t workspace_size = 0;
  std::vector<ParameterSlots> inputs;
  std::vector<ParameterSlots> outputs;
  std::vector<TensorAccess> accesses;
};

}  // namespace canopy

// The executor object: what phase 1 built for one call. Op files create it
// and fill it in; clients never see its address, only the handle
// PublishExecutor gives it (see executor_handles.h).
struct aclOpExecutor {
  const char* op_name = "";  // "aclnnAdd": a string literal
  std::shared_ptr<const canopy::ExecutorPlan> plan;
  bool repeatable = false;  // guarded by the handle table's mutex
  // This executor's own part: the address of each slot (tensor argument).
  std::vector<void*> slot_addresses;
  // The client's reference plus one per queued launch or borrow; the last one frees.
  std::atomic<int32_t> references{1};
  // Workspace of the single launch of a non-repeatable executor.
  void* bound_workspace = nullptr;
  // Shapes and dtypes as a JSON object, filled only while tracing.
  std::string trace_args;
};

// What libnnopbase exports to libopapi. Only C names leave the libraries (see
// cmake/exports.map); the C++ spellings below are what op files call.
extern "C" {
CANOPY_EXPORT aclnnStatus canopyNnopbasePublishExecutor(aclOpExecutor* executor, aclOpExecutor** handle);
CANOPY_EXPORT aclnnStatus canopyNnopbaseLaunchExecutor(const char* op_name, void* workspace, uint64_t workspace_size,
                                                       aclOpExecutor* handle, aclrtStream stream);
CANOPY_EXPORT void canopyNnopbaseSetErrorMessageV(const char* format, va_list args);
}

namespace canopy {

// The end of phase 1, shared by every op: gives the client `*handle` for the
// new `executor`, or frees it and fails (561101) when no handle is left.
inline aclnnStatus PublishExecutor(aclOpExecutor* executor, aclOpExecutor** handle) {
  return canopyNnopbasePublishExecutor(executor, handle);
}

// Phase 2, shared by every op: checks the handle and the workspace, enqueues
// the executor on the stream as one task and returns. Frees a non-repeatable
// executor (also on failure, as CANN does); its handle is dead from then on.
inline aclnnStatus LaunchExecutor(const char* op_name, void* workspace, uint64_t workspace_size, aclOpExecutor* handle,
                                  aclrtStream stream) {
  return canopyNnopbaseLaunchExecutor(op_name, workspace, workspace_size, handle, stream);
}

// Sets aclGetRecentErrMsg() text for the calling thread.
inline void SetErrorMessage(const char* format, ...) __attribute__((format(printf, 1, 2)));
inline void SetErrorMessage(const char* format, ...) {
  va_list args;
  va_start(args, format);
  canopyNnopbaseSetErrorMessageV(format, args);
  va_end(args);
}

// Drops one reference; frees the executor at the last (inside libnnopbase).
void ReleaseExecutor(aclOpExecutor* executor);

}  // namespace canopy
