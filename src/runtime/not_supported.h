// Declared CANN functions that have no meaning on Canopy's CPU devices are
// still defined (a client that merely references one must link), and each
// call fails loudly: CANN's ACL_ERROR_RT_FEATURE_NOT_SUPPORT, with a message in
// aclGetRecentErrMsg() naming the function and saying why. Never a silent
// success. The arguments are not looked at, so no argument can crash them.
#pragma once

#include "acl/acl.h"

namespace canopy::runtime {

inline constexpr aclError kNotSupported = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;

// Sets "<function>: not supported by Canopy: <reason>" and returns kNotSupported.
aclError NotSupported(const char* function, const char* reason) noexcept;

}  // namespace canopy::runtime
