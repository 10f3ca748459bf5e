// No C++ exception may leave an exported C function: a C caller cannot catch
// it, so the process would abort (a std::bad_alloc while building a tensor, a
// std::system_error when the system refuses a thread). Every exported
// definition is therefore a function-try-block whose handler turns the
// exception in flight into the function's documented failure value, with a
// message naming the function in aclGetRecentErrMsg():
//
//   aclError aclrtFoo(...) try {
//     ...
//   } CANOPY_C_BOUNDARY(ACL_ERROR_INTERNAL_ERROR)
//
// The handlers never throw themselves (the message is written without
// allocating).
#pragma once

#include "acl/acl_base.h"
#include "aclnn/aclnn_base.h"

namespace canopy {

// What kind of exception is being handled; sets the recent error message.
enum class ExceptionKind { kOutOfMemory, kSystemResource, kOther };
ExceptionKind ReportCurrentException(const char* function) noexcept;

// The status an acl runtime function returns for the exception being handled:
// ACL_ERROR_BAD_ALLOC when the host is out of memory, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL
// when the system refused a resource (a thread, a lock), else ACL_ERROR_RT_INTERNAL_ERROR.
aclError AclErrorOfCurrentException(const char* function) noexcept;
// The status an aclnn function returns for it: ACLNN_ERR_INNER.
aclnnStatus AclnnStatusOfCurrentException(const char* function) noexcept;

}  // namespace canopy

// The handler of an exported function returning aclError.
#define CANOPY_C_BOUNDARY_ACL                              \
  catch (...) {                                            \
    return ::canopy::AclErrorOfCurrentException(__func__); \
  }
// The handler of an exported function returning aclnnStatus.
#define CANOPY_C_BOUNDARY_ACLNN                               \
  catch (...) {                                               \
    return ::canopy::AclnnStatusOfCurrentException(__func__); \
  }
// The handler of an exported function returning `value` on failure (a null
// pointer, 0) or nothing (pass nothing, for void functions).
#define CANOPY_C_BOUNDARY(...)                  \
  catch (...) {                                 \
    ::canopy::ReportCurrentException(__func__); \
    return __VA_ARGS__;                         \
  }
