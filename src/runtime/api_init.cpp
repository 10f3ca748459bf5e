// aclInit, aclFinalize, aclGetRecentErrMsg and the system parameters.
#include "api_common.h"

using namespace canopy::runtime;

extern "C" {

aclError aclInit(const char* /*configPath: dump/profiling configuration, not used*/) {
  return Runtime::Get().Initialize();
}

aclError aclFinalize() { return Runtime::Get().Finalize(); }

const char* aclGetRecentErrMsg() { return RecentError(); }

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  CANOPY_REQUIRE_INIT();
  if (opt != ACL_OPT_DETERMINISTIC) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSetSysParamOpt: option %d is not supported",
                static_cast<int>(opt));
  }
  if (value != 0 && value != 1) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtSetSysParamOpt: ACL_OPT_DETERMINISTIC takes 0 or 1, got %lld",
                static_cast<long long>(value));
  }
  Runtime::Get().deterministic.store(value);
  return ACL_SUCCESS;
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(value);
  if (opt != ACL_OPT_DETERMINISTIC) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetSysParamOpt: option %d is not supported",
                static_cast<int>(opt));
  }
  *value = Runtime::Get().deterministic.load();
  return ACL_SUCCESS;
}

}  // extern "C"
