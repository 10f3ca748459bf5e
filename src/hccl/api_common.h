// What every exported HCCL function shares: its C-boundary handler and the
// argument checks CANN's HCCL makes, each failing with CANN's status.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "communicator.h"
#include "error.h"
#include "hccl/hccl.h"

namespace canopy::hccl {

// The status of the exception in flight, reported as `function`'s error.
inline HcclResult ReportCurrentException(const char* function) noexcept {
  try {
    std::string message;
    const HcclResult code = StatusOfCurrentException(message);
    return Report(function, code, message);
  } catch (...) {
    return HCCL_E_INTERNAL;
  }
}

// A null pointer argument: HCCL_E_PTR.
inline void RequireNotNull(const void* pointer, const char* name) {
  if (pointer == nullptr) Throw(HCCL_E_PTR, "%s is a null pointer", name);
}

// The live communicator of `handle`: HCCL_E_PTR for null, HCCL_E_PARA for a
// handle that is not (or no longer) a communicator.
std::shared_ptr<Communicator> RequireComm(HcclComm handle);

// The calling thread's current device (aclrtGetDevice); -1 when none is set.
int32_t CurrentDevice();

// An element count above CANN's largest (2^40): HCCL_E_PARA.
void CheckCount(uint64_t count);
// The element size of a type any operation moves; HCCL_E_NOT_SUPPORT otherwise.
size_t CheckMovedType(HcclDataType type);
// A type and reduce op the reducing operations take; HCCL_E_NOT_SUPPORT otherwise.
void CheckReduced(HcclDataType type, HcclReduceOp op);

}  // namespace canopy::hccl

// The handler of an exported function returning HcclResult.
#define CANOPY_C_BOUNDARY_HCCL                               \
  catch (...) {                                              \
    return ::canopy::hccl::ReportCurrentException(__func__); \
  }
