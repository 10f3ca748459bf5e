// Executor reuse: aclSetAclOpExecutorRepeatable, aclDestroyAclOpExecutor and
// the aclSet*TensorAddr family that rebinds a repeatable executor's memory,
// and canopyDescribeExecutor.
// Every call below takes the client's handle; a stale one is reported, not used.
#include <algorithm>
#include <cstring>
#include <string>

#include "canopy/canopy_executor.h"
#include "common/c_boundary.h"
#include "executor.h"
#include "executor_handles.h"
#include "live_objects.h"

using canopy::ExecutorHandles;
using canopy::ParameterSlots;
using canopy::SetErrorMessage;

namespace {

using ParameterGroups = std::initializer_list<std::vector<ParameterSlots> canopy::ExecutorPlan::*>;

// The executor behind a client's handle, borrowed for the length of one call.
class BorrowedExecutor {
 public:
  BorrowedExecutor(const char* function, aclOpExecutor* handle) {
    if (handle == nullptr) {
      SetErrorMessage("%s: argument 'executor' is null", function);
      status_ = ACLNN_ERR_INNER_NULLPTR;
      return;
    }
    const char* why = "";
    executor_ = ExecutorHandles::Get().Borrow(handle, &why);
    if (executor_ == nullptr) {
      SetErrorMessage("%s: argument 'executor' %s", function, why);
      status_ = ACLNN_ERR_PARAM_INVALID;
    }
  }
  ~BorrowedExecutor() {
    if (executor_ != nullptr) canopy::ReleaseExecutor(executor_);
  }
  BorrowedExecutor(const BorrowedExecutor&) = delete;
  BorrowedExecutor& operator=(const BorrowedExecutor&) = delete;

  aclnnStatus status() const { return status_; }
  aclOpExecutor& operator*() const { return *executor_; }
  aclOpExecutor* operator->() const { return executor_; }

 private:
  aclOpExecutor* executor_ = nullptr;
  aclnnStatus status_ = ACLNN_SUCCESS;
};

// The parameters of `groups` (inputs, outputs, or both), in that order.
std::vector<const ParameterSlots*> ParametersOf(const canopy::ExecutorPlan& plan, ParameterGroups groups) {
  std::vector<const ParameterSlots*> parameters;
  for (const auto group : groups) {
    for (const auto& parameter : plan.*group) parameters.push_back(&parameter);
  }
  return parameters;
}

aclnnStatus Rebind(const char* function, aclOpExecutor* handle, ParameterGroups groups, size_t index, aclTensor* tensor,
                   void* addr) {
  const BorrowedExecutor executor(function, handle);
  if (executor.status() != ACLNN_SUCCESS) return executor.status();
  if (tensor == nullptr) {
    SetErrorMessage("%s: argument 'tensor' is null", function);
    return ACLNN_ERR_INNER_NULLPTR;
  }
  if (!canopy::LiveTensors().Contains(tensor)) {
    SetErrorMessage("%s: argument 'tensor' is not a live aclTensor (destroyed already?)", function);
    return ACLNN_ERR_PARAM_INVALID;
  }
  // The slots of the tensors of `groups`, flattened: a list parameter counts one per element.
  std::vector<int32_t> slots;
  for (const ParameterSlots* parameter : ParametersOf(*executor->plan, groups)) {
    slots.insert(slots.end(), parameter->slots.begin(), parameter->slots.end());
  }
  if (index >= slots.size()) {
    SetErrorMessage("%s: index %zu is out of range: %s has %zu such tensor(s)", function, index, executor->op_name,
                    slots.size());
    return ACLNN_ERR_PARAM_INVALID;
  }
  if (slots[index] < 0) {
    SetErrorMessage("%s: tensor %zu of %s was null in phase 1 and cannot be bound", function, index, executor->op_name);
    return ACLNN_ERR_PARAM_INVALID;
  }
  tensor->data = addr;
  executor->slot_addresses[slots[index]] = addr;
  return ACLNN_SUCCESS;
}

aclnnStatus RebindDynamic(const char* function, aclOpExecutor* handle, ParameterGroups groups, size_t ir_index,
                          size_t relative_index, aclTensorList* tensors, void* addr) {
  const BorrowedExecutor executor(function, handle);
  if (executor.status() != ACLNN_SUCCESS) return executor.status();
  if (tensors == nullptr) {
    SetErrorMessage("%s: argument 'tensors' is null", function);
    return ACLNN_ERR_INNER_NULLPTR;
  }
  if (!canopy::LiveTensorLists().Contains(tensors)) {
    SetErrorMessage("%s: argument 'tensors' is not a live aclTensorList (destroyed already?)", function);
    return ACLNN_ERR_PARAM_INVALID;
  }
  const std::vector<const ParameterSlots*> parameters = ParametersOf(*executor->plan, groups);
  if (ir_index >= parameters.size()) {
    SetErrorMessage("%s: irIndex %zu is out of range: %s has %zu such parameter(s)", function, ir_index,
                    executor->op_name, parameters.size());
    return ACLNN_ERR_PARAM_INVALID;
  }
  const ParameterSlots& parameter = *parameters[ir_index];
  if (relative_index >= parameter.slots.size() || relative_index >= tensors->tensors.size()) {
    SetErrorMessage("%s: relativeIndex %zu is out of range for a list of %zu tensor(s)", function, relative_index,
                    parameter.slots.size());
    return ACLNN_ERR_PARAM_INVALID;
  }
  if (parameter.slots[relative_index] < 0) {
    SetErrorMessage("%s: list element %zu was null in phase 1", function, relative_index);
    return ACLNN_ERR_PARAM_INVALID;
  }
  aclTensor* tensor = tensors->tensors[relative_index];
  if (tensor != nullptr && !canopy::LiveTensors().Contains(tensor)) {
    SetErrorMessage("%s: element %zu of 'tensors' is not a live aclTensor (destroyed already?)", function,
                    relative_index);
    return ACLNN_ERR_PARAM_INVALID;
  }
  if (tensor != nullptr) tensor->data = addr;
  executor->slot_addresses[parameter.slots[relative_index]] = addr;
  return ACLNN_SUCCESS;
}

constexpr auto kInputs = &canopy::ExecutorPlan::inputs;
constexpr auto kOutputs = &canopy::ExecutorPlan::outputs;

}  // namespace

extern "C" {

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) try {
  if (executor == nullptr) {
    SetErrorMessage("aclSetAclOpExecutorRepeatable: argument 'executor' is null");
    return ACLNN_ERR_INNER_NULLPTR;
  }
  const char* why = "";
  if (!ExecutorHandles::Get().SetRepeatable(executor, &why)) {
    SetErrorMessage("aclSetAclOpExecutorRepeatable: argument 'executor' %s", why);
    return ACLNN_ERR_PARAM_INVALID;
  }
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) try {
  if (executor == nullptr) {
    SetErrorMessage("aclDestroyAclOpExecutor: argument 'executor' is null");
    return ACLNN_ERR_INNER_NULLPTR;
  }
  const char* why = "";
  aclOpExecutor* object = ExecutorHandles::Get().Retire(executor, &why);
  if (object == nullptr) {
    SetErrorMessage("aclDestroyAclOpExecutor: argument 'executor' %s", why);
    return ACLNN_ERR_PARAM_INVALID;
  }
  // Launches still queued keep it alive until they have run.
  canopy::ReleaseExecutor(object);
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus canopyDescribeExecutor(aclOpExecutor* executor, char* text, size_t capacity, size_t* length) try {
  if (length == nullptr || (text == nullptr && capacity > 0)) {
    SetErrorMessage("canopyDescribeExecutor: argument '%s' is null", length == nullptr ? "length" : "text");
    return ACLNN_ERR_INNER_NULLPTR;
  }
  const BorrowedExecutor borrowed(__func__, executor);
  if (borrowed.status() != ACLNN_SUCCESS) return borrowed.status();
  std::string steps;
  for (const auto& step : borrowed->plan->steps) steps += step->Describe() + "\n";
  *length = steps.size();
  if (capacity > 0) {
    const size_t written = std::min(capacity - 1, steps.size());
    std::memcpy(text, steps.data(), written);
    text[written] = '\0';
  }
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) try {
  return Rebind(__func__, executor, {kInputs}, index, tensor, addr);
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) try {
  return Rebind(__func__, executor, {kOutputs}, index, tensor, addr);
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) try {
  return Rebind(__func__, executor, {kInputs, kOutputs}, index, tensor, addr);
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                         aclTensorList* tensors, void* addr) try {
  return RebindDynamic(__func__, executor, {kInputs}, irIndex, relativeIndex, tensors, addr);
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                          aclTensorList* tensors, void* addr) try {
  return RebindDynamic(__func__, executor, {kOutputs}, irIndex, relativeIndex, tensors, addr);
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                    aclTensorList* tensors, void* addr) try {
  return RebindDynamic(__func__, executor, {kInputs, kOutputs}, irIndex, relativeIndex, tensors, addr);
}
CANOPY_C_BOUNDARY_ACLNN

// CANN's reserved capitalised spellings behave identically.
aclnnStatus AclSetInputTensorAddr(aclOpExecutor* e, const size_t i, aclTensor* t, void* a) {
  return aclSetInputTensorAddr(e, i, t, a);
}
aclnnStatus AclSetOutputTensorAddr(aclOpExecutor* e, const size_t i, aclTensor* t, void* a) {
  return aclSetOutputTensorAddr(e, i, t, a);
}
aclnnStatus AclSetTensorAddr(aclOpExecutor* e, const size_t i, aclTensor* t, void* a) {
  return aclSetTensorAddr(e, i, t, a);
}
aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor* e, size_t ir, const size_t r, aclTensorList* t, void* a) {
  return aclSetDynamicInputTensorAddr(e, ir, r, t, a);
}
aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor* e, size_t ir, const size_t r, aclTensorList* t, void* a) {
  return aclSetDynamicOutputTensorAddr(e, ir, r, t, a);
}
aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor* e, size_t ir, const size_t r, aclTensorList* t, void* a) {
  return aclSetDynamicTensorAddr(e, ir, r, t, a);
}

}  // extern "C"
