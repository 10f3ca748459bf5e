// Executor reuse: aclSetAclOpExecutorRepeatable, aclDestroyAclOpExecutor and
// the aclSet*TensorAddr family that rebinds a repeatable executor's memory.
#include "executor.h"

using canopy::ParameterSlots;
using canopy::SetErrorMessage;

namespace {

// The flattened slot list of a group of parameters (inputs, outputs, or both).
std::vector<int32_t> Flatten(std::initializer_list<const std::vector<ParameterSlots>*> groups) {
  std::vector<int32_t> slots;
  for (const auto* group : groups) {
    for (const auto& parameter : *group) slots.insert(slots.end(), parameter.slots.begin(), parameter.slots.end());
  }
  return slots;
}

aclnnStatus Rebind(const char* function, aclOpExecutor* executor, const std::vector<int32_t>& slots, size_t index,
                   aclTensor* tensor, void* addr) {
  if (executor == nullptr || tensor == nullptr) {
    SetErrorMessage("%s: argument '%s' is null", function, executor == nullptr ? "executor" : "tensor");
    return ACLNN_ERR_INNER_NULLPTR;
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

aclnnStatus RebindDynamic(const char* function, aclOpExecutor* executor,
                          std::initializer_list<const std::vector<ParameterSlots>*> groups, size_t ir_index,
                          size_t relative_index, aclTensorList* tensors, void* addr) {
  if (executor == nullptr || tensors == nullptr) {
    SetErrorMessage("%s: argument '%s' is null", function, executor == nullptr ? "executor" : "tensors");
    return ACLNN_ERR_INNER_NULLPTR;
  }
  std::vector<const ParameterSlots*> parameters;
  for (const auto* group : groups) {
    for (const auto& parameter : *group) parameters.push_back(&parameter);
  }
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
  if (aclTensor* tensor = tensors->tensors[relative_index]) tensor->data = addr;
  executor->slot_addresses[parameter.slots[relative_index]] = addr;
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  if (executor == nullptr) {
    SetErrorMessage("aclSetAclOpExecutorRepeatable: argument 'executor' is null");
    return ACLNN_ERR_INNER_NULLPTR;
  }
  executor->repeatable = true;
  return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  if (executor == nullptr) {
    SetErrorMessage("aclDestroyAclOpExecutor: argument 'executor' is null");
    return ACLNN_ERR_INNER_NULLPTR;
  }
  // Launches still queued keep it alive until they have run.
  canopy::ReleaseExecutor(executor);
  return ACLNN_SUCCESS;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  if (executor == nullptr) return Rebind(__func__, executor, {}, index, tensor, addr);
  return Rebind(__func__, executor, Flatten({&executor->plan->inputs}), index, tensor, addr);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  if (executor == nullptr) return Rebind(__func__, executor, {}, index, tensor, addr);
  return Rebind(__func__, executor, Flatten({&executor->plan->outputs}), index, tensor, addr);
}

aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  if (executor == nullptr) return Rebind(__func__, executor, {}, index, tensor, addr);
  return Rebind(__func__, executor, Flatten({&executor->plan->inputs, &executor->plan->outputs}), index, tensor, addr);
}

aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                         aclTensorList* tensors, void* addr) {
  if (executor == nullptr) return RebindDynamic(__func__, executor, {}, irIndex, relativeIndex, tensors, addr);
  return RebindDynamic(__func__, executor, {&executor->plan->inputs}, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                          aclTensorList* tensors, void* addr) {
  if (executor == nullptr) return RebindDynamic(__func__, executor, {}, irIndex, relativeIndex, tensors, addr);
  return RebindDynamic(__func__, executor, {&executor->plan->outputs}, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                    aclTensorList* tensors, void* addr) {
  if (executor == nullptr) return RebindDynamic(__func__, executor, {}, irIndex, relativeIndex, tensors, addr);
  return RebindDynamic(__func__, executor, {&executor->plan->inputs, &executor->plan->outputs}, irIndex, relativeIndex,
                       tensors, addr);
}

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
