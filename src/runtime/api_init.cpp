// aclInit, aclFinalize, aclGetRecentErrMsg and the system parameters.
#include "api_common.h"
#include "common/c_boundary.h"

using namespace canopy::runtime;

namespace {

// ACL_OPT_DETERMINISTIC: 0 off, 1 deterministic, 2 strong and 3 batch consistency.
constexpr int64_t kDeterministicModes = 4;
// The other options are switches: 0 or 1.
constexpr int64_t kSwitchValues = 2;
// ACL_OPT_STRONG_CONSISTENCY, spelled as a number: the name is deprecated.
constexpr int kStrongConsistencyOpt = 2;

aclError CheckSysParam(const char* function, aclSysParamOpt opt) {
  const int index = static_cast<int>(opt);
  if (index >= 0 && index < Runtime::kSysParamCount) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'opt' (%d) is not an aclSysParamOpt", function, index);
}

}  // namespace

extern "C" {

aclError aclInit(const char* /*configPath: dump/profiling configuration, not used*/) try {
  return Runtime::Get().Initialize();
}
CANOPY_C_BOUNDARY_ACL

aclError aclFinalize() try {
  // Finalizing drains every stream and joins the host-function threads.
  CANOPY_RETURN_IF_ERROR(CheckNotInsideDrainedWork(__func__, nullptr, nullptr));
  return Runtime::Get().Finalize();
}
CANOPY_C_BOUNDARY_ACL

const char* aclGetRecentErrMsg() try { return TakeRecentError(); }
CANOPY_C_BOUNDARY(nullptr)

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_RETURN_IF_ERROR(CheckSysParam(__func__, opt));
  const bool deterministic_like = opt == ACL_OPT_DETERMINISTIC || static_cast<int>(opt) == kStrongConsistencyOpt;
  const int64_t limit = deterministic_like ? kDeterministicModes : kSwitchValues;
  if (value < 0 || value >= limit) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtSetSysParamOpt: argument 'value' (%lld) is out of range [0, %lld) for option %d",
                static_cast<long long>(value), static_cast<long long>(limit), static_cast<int>(opt));
  }
  Runtime::Get().sys_params[static_cast<int>(opt)].store(value);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(value);
  CANOPY_RETURN_IF_ERROR(CheckSysParam(__func__, opt));
  *value = Runtime::Get().sys_params[static_cast<int>(opt)].load();  // 0 until set
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
