// The system parameters (aclSysParamOpt): per process (aclrtSetSysParamOpt)
// and per context (aclrtCtxSetSysParamOpt). As CANN's runtime does, a
// context's value also becomes the process value, which is what the ops read
// (canopyDeterministicMode); a context's own value is only there to be read
// back, and reading one never set fails (107021).
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

// `opt` names one of the first `count` options (a context takes all but
// ACL_OPT_ENABLE_KERNEL_EARLY_START, the last).
aclError CheckOpt(const char* function, aclSysParamOpt opt, int count) {
  const int index = static_cast<int>(opt);
  if (index >= 0 && index < count) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'opt' (%d) is not an aclSysParamOpt%s", function, index,
              count == Context::kSysParamCount ? " a context takes" : "");
}

// CANN's runtime checks the value after the opt, with its own code (107000).
aclError CheckValue(const char* function, aclSysParamOpt opt, int64_t value) {
  const bool deterministic_like = opt == ACL_OPT_DETERMINISTIC || static_cast<int>(opt) == kStrongConsistencyOpt;
  const int64_t limit = deterministic_like ? kDeterministicModes : kSwitchValues;
  if (value >= 0 && value < limit) return ACL_SUCCESS;
  return Fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'value' (%lld) is out of range [0, %lld) for option %d",
              function, static_cast<long long>(value), static_cast<long long>(limit), static_cast<int>(opt));
}

aclError CurrentContext(const char* function, std::shared_ptr<Context>& context) {
  context = Runtime::Get().current_context();
  if (context != nullptr) return ACL_SUCCESS;
  return Fail(ACL_ERROR_RT_CONTEXT_NULL, "%s: no current context (call aclrtSetDevice or aclrtSetCurrentContext)",
              function);
}

}  // namespace

extern "C" {

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_RETURN_IF_ERROR(CheckOpt(__func__, opt, Runtime::kSysParamCount));
  CANOPY_RETURN_IF_ERROR(CheckValue(__func__, opt, value));
  Runtime::Get().sys_params[static_cast<int>(opt)].store(value);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(value);
  CANOPY_RETURN_IF_ERROR(CheckOpt(__func__, opt, Runtime::kSysParamCount));
  *value = Runtime::Get().sys_params[static_cast<int>(opt)].load();  // 0 until set
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_RETURN_IF_ERROR(CheckOpt(__func__, opt, Context::kSysParamCount));
  CANOPY_RETURN_IF_ERROR(CheckValue(__func__, opt, value));
  std::shared_ptr<Context> context;
  CANOPY_RETURN_IF_ERROR(CurrentContext(__func__, context));
  context->SetSysParam(static_cast<int>(opt), value);
  Runtime::Get().sys_params[static_cast<int>(opt)].store(value);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(value);
  CANOPY_RETURN_IF_ERROR(CheckOpt(__func__, opt, Context::kSysParamCount));
  std::shared_ptr<Context> context;
  CANOPY_RETURN_IF_ERROR(CurrentContext(__func__, context));
  if (!context->GetSysParam(static_cast<int>(opt), *value)) {
    return Fail(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, "%s: option %d was never set in the current context", __func__,
                static_cast<int>(opt));
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
