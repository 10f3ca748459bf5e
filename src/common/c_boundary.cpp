#include "common/c_boundary.h"

#include <cstdio>
#include <exception>
#include <new>
#include <system_error>

#include "canopy/canopy_runtime.h"

namespace canopy {
namespace {

// Writes "<function>: <what>" as the recent error message. The message goes
// through a fixed buffer: formatting it must not need the memory that ran out.
void SetMessage(const char* function, const char* what, const char* detail) noexcept {
  char message[512];
  std::snprintf(message, sizeof(message), "%s: %s%s%s", function, what, detail[0] != '\0' ? ": " : "", detail);
  canopySetRecentErrMsg(message);
}

}  // namespace

ExceptionKind ReportCurrentException(const char* function) noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    SetMessage(function, "the host is out of memory", "");
    return ExceptionKind::kOutOfMemory;
  } catch (const std::system_error& error) {
    SetMessage(function, "the system refused a resource", error.what());
    return ExceptionKind::kSystemResource;
  } catch (const std::exception& error) {
    SetMessage(function, "internal error", error.what());
    return ExceptionKind::kOther;
  } catch (...) {
    SetMessage(function, "internal error (an unknown exception)", "");
    return ExceptionKind::kOther;
  }
}

aclError AclErrorOfCurrentException(const char* function) noexcept {
  switch (ReportCurrentException(function)) {
    case ExceptionKind::kOutOfMemory:
      return ACL_ERROR_BAD_ALLOC;
    case ExceptionKind::kSystemResource:
      return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    case ExceptionKind::kOther:
      break;
  }
  return ACL_ERROR_RT_INTERNAL_ERROR;
}

aclnnStatus AclnnStatusOfCurrentException(const char* function) noexcept {
  ReportCurrentException(function);
  return ACLNN_ERR_INNER;
}

}  // namespace canopy
