// The small helpers of acl_base.h (data type sizes, fp16 conversion, data
// buffers, logging) and the version and run-mode queries.
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "api_common.h"
#include "common/c_boundary.h"
#include "common/dtype.h"
#include "common/half.h"
#include "slog.h"

using namespace canopy::runtime;

struct aclDataBuffer {
  void* data;
  size_t size;
};

namespace {

// Elements narrower than a byte report the size of the byte that holds them, as CANN does.
size_t ElementBytes(aclDataType dtype) {
  switch (dtype) {
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_INT4:
    case ACL_UINT1:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
    case ACL_FLOAT6_E3M2:
    case ACL_FLOAT6_E2M3:
    case ACL_FLOAT4_E2M1:
    case ACL_FLOAT4_E1M2:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_DOUBLE:
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 0;  // ACL_STRING, ACL_DT_UNDEFINED and unknown values
  }
}

constexpr const char* kVersion = "8.5.0";  // the CANN release whose API Canopy follows
constexpr int32_t kVersionNumber = 80500000;

}  // namespace

extern "C" {

size_t aclDataTypeSize(aclDataType dataType) try {
  const int raw = canopy::RawEnumValue(dataType);  // a C caller may pass any int
  return canopy::IsDtypeValue(raw) ? ElementBytes(static_cast<aclDataType>(raw)) : 0;
}
CANOPY_C_BOUNDARY({})

float aclFloat16ToFloat(aclFloat16 value) try { return canopy::HalfToFloat(value); }
CANOPY_C_BOUNDARY({})

aclFloat16 aclFloatToFloat16(float value) try { return canopy::FloatToHalf(value); }
CANOPY_C_BOUNDARY({})

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) try { return new aclDataBuffer{data, size}; }
CANOPY_C_BOUNDARY(nullptr)

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) try {
  CANOPY_REQUIRE_NOT_NULL(dataBuffer);
  delete dataBuffer;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) try {
  CANOPY_REQUIRE_NOT_NULL(dataBuffer);
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) try {
  return dataBuffer != nullptr ? dataBuffer->data : nullptr;
}
CANOPY_C_BOUNDARY(nullptr)

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) try {
  return dataBuffer != nullptr ? static_cast<uint32_t>(dataBuffer->size) : 0;
}
CANOPY_C_BOUNDARY({})

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) try {
  return dataBuffer != nullptr ? dataBuffer->size : 0;
}
CANOPY_C_BOUNDARY({})

// An application's own records go where CANN's logging settings send them
// (runtime/slog.h), as on CANN: nothing on the terminal unless asked for.
void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line, const char* fmt, ...) try {
  const int level = static_cast<int>(logLevel);
  if (level < 0 || level > 3 || !LogEnabled(static_cast<LogLevel>(level))) return;
  char message[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(message, sizeof(message), fmt != nullptr ? fmt : "", args);
  va_end(args);
  char record[1400];
  std::snprintf(record, sizeof(record), "[%s:%u] %s: %s", file != nullptr ? file : "?", line,
                func != nullptr ? func : "?", message);
  Log(static_cast<LogLevel>(level), "APP", record);
}
CANOPY_C_BOUNDARY()

aclError aclrtGetRunMode(aclrtRunMode* runMode) try {
  CANOPY_REQUIRE_NOT_NULL(runMode);
  *runMode = ACL_HOST;  // the program runs on the host, the "device" is this CPU
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) try {
  CANOPY_REQUIRE_NOT_NULL(majorVersion);
  CANOPY_REQUIRE_NOT_NULL(minorVersion);
  CANOPY_REQUIRE_NOT_NULL(patchVersion);
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

// Every package of the toolkit (runtime, compiler, opp, ...) is Canopy itself,
// so each reports the CANN release Canopy follows, split into its parts.
aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version) try {
  CANOPY_REQUIRE_NOT_NULL(version);
  if (name < ACL_PKG_NAME_CANN || name > ACL_PKG_NAME_DRIVER) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclsysGetCANNVersion: argument 'name' (%d) is not an aclCANNPackageName",
                static_cast<int>(name));
  }
  *version = aclCANNPackageVersion{};
  std::snprintf(version->version, sizeof(version->version), "%s", kVersion);
  char* parts[] = {version->majorVersion, version->minorVersion, version->releaseVersion};
  const char* part = kVersion;
  for (char* out : parts) {
    const char* end = std::strchr(part, '.');
    const size_t length = end != nullptr ? static_cast<size_t>(end - part) : std::strlen(part);
    std::snprintf(out, ACL_PKG_VERSION_PARTS_MAX_SIZE, "%.*s", static_cast<int>(length), part);
    if (end == nullptr) break;
    part = end + 1;
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) try {
  CANOPY_REQUIRE_NOT_NULL(pkgName);
  CANOPY_REQUIRE_NOT_NULL(versionStr);
  std::strcpy(versionStr, kVersion);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) try {
  CANOPY_REQUIRE_NOT_NULL(pkgName);
  CANOPY_REQUIRE_NOT_NULL(versionNum);
  *versionNum = kVersionNumber;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
