/*
 * Canopy - CPU implementation of the Ascend CANN runtime API.
 *
 * acl/acl_base_rt.h: basic ACL types shared by every part of the API: handle
 * typedefs, the generic aclError codes, data types, formats and a handful of
 * helper functions. Names and numeric values follow the public CANN headers.
 * Normally reached through acl/acl_base.h.
 */
#ifndef CANOPY_ACL_ACL_BASE_RT_H_
#define CANOPY_ACL_ACL_BASE_RT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------------------------- */
/* Symbol visibility and deprecation markers                                                                         */
/* ---------------------------------------------------------------------------------------------------------------- */

/* Every public entry point is exported from the Canopy shared libraries. */
#ifndef ACL_FUNC_VISIBILITY
#if defined(_MSC_VER)
#define ACL_FUNC_VISIBILITY
#else
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif
#endif

/*
 * Deprecation markers. Define CANOPY_NO_DEPRECATION_ATTRIBUTES before including any ACL header
 * to turn them off (useful for code that has to exercise the deprecated entry points, e.g. tests).
 */
#ifndef ACL_DEPRECATED
#if defined(CANOPY_NO_DEPRECATION_ATTRIBUTES)
#define ACL_DEPRECATED
#define ACL_DEPRECATED_MESSAGE(message)
#elif defined(__GNUC__) && (__GNUC__ >= 6)
#define ACL_DEPRECATED __attribute__((deprecated))
#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))
#elif defined(_MSC_VER)
#define ACL_DEPRECATED __declspec(deprecated)
#define ACL_DEPRECATED_MESSAGE(message) __declspec(deprecated(message))
#else
#define ACL_DEPRECATED
#define ACL_DEPRECATED_MESSAGE(message)
#endif
#endif

/* ---------------------------------------------------------------------------------------------------------------- */
/* Handles                                                                                                          */
/* ---------------------------------------------------------------------------------------------------------------- */

typedef void *aclrtStream;
typedef void *aclmdlRITask;
typedef void *aclrtEvent;
typedef void *aclrtContext;
typedef void *aclrtNotify;
typedef void *aclrtCntNotify;
typedef void *aclrtLabel;
typedef void *aclrtLabelList;
typedef void *aclrtMbuf;
typedef void *aclrtAllocatorDesc;
typedef void *aclrtAllocator;
typedef void *aclrtAllocatorBlock;
typedef void *aclrtAllocatorAddr;
typedef void *aclrtTaskGrp;

/* Status code returned by (almost) every API call; ACL_SUCCESS (0) means success. */
typedef int aclError;

/* IEEE 754 binary16 value carried as raw bits. */
typedef uint16_t aclFloat16;

/* Opaque (address, size) pair describing a user buffer. */
typedef struct aclDataBuffer aclDataBuffer;

/* ---------------------------------------------------------------------------------------------------------------- */
/* Generic error codes                                                                                              */
/*   1000xx/1480xx: invalid use of the API, 2000xx: resource problems, 3000xx: storage, 5000xx: internal errors.     */
/*   Runtime specific codes (ACL_ERROR_RT_*) live in acl/error_codes/rt_error_codes.h.                               */
/* ---------------------------------------------------------------------------------------------------------------- */

static const int ACL_ERROR_NONE = 0; /* old spelling of ACL_SUCCESS */
static const int ACL_SUCCESS = 0;

static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_WRITE_FILE = 100004;
static const int ACL_ERROR_INVALID_FILE_SIZE = 100005;
static const int ACL_ERROR_PARSE_FILE = 100006;
static const int ACL_ERROR_FILE_MISSING_ATTR = 100007;
static const int ACL_ERROR_FILE_ATTR_INVALID = 100008;
static const int ACL_ERROR_INVALID_DUMP_CONFIG = 100009;
static const int ACL_ERROR_INVALID_PROFILING_CONFIG = 100010;
static const int ACL_ERROR_INVALID_MODEL_ID = 100011;
static const int ACL_ERROR_DESERIALIZE_MODEL = 100012;
static const int ACL_ERROR_PARSE_MODEL = 100013;
static const int ACL_ERROR_READ_MODEL_FAILURE = 100014;
static const int ACL_ERROR_MODEL_SIZE_INVALID = 100015;
static const int ACL_ERROR_MODEL_MISSING_ATTR = 100016;
static const int ACL_ERROR_MODEL_INPUT_NOT_MATCH = 100017;
static const int ACL_ERROR_MODEL_OUTPUT_NOT_MATCH = 100018;
static const int ACL_ERROR_MODEL_NOT_DYNAMIC = 100019;
static const int ACL_ERROR_OP_TYPE_NOT_MATCH = 100020;
static const int ACL_ERROR_OP_INPUT_NOT_MATCH = 100021;
static const int ACL_ERROR_OP_OUTPUT_NOT_MATCH = 100022;
static const int ACL_ERROR_OP_ATTR_NOT_MATCH = 100023;
static const int ACL_ERROR_OP_NOT_FOUND = 100024;
static const int ACL_ERROR_OP_LOAD_FAILED = 100025;
static const int ACL_ERROR_UNSUPPORTED_DATA_TYPE = 100026;
static const int ACL_ERROR_FORMAT_NOT_MATCH = 100027;
static const int ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED = 100028;
static const int ACL_ERROR_KERNEL_NOT_FOUND = 100029;
static const int ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED = 100030;
static const int ACL_ERROR_KERNEL_ALREADY_REGISTERED = 100031;
static const int ACL_ERROR_INVALID_QUEUE_ID = 100032;
static const int ACL_ERROR_REPEAT_SUBSCRIBE = 100033;
static const int ACL_ERROR_STREAM_NOT_SUBSCRIBE = 100034;
static const int ACL_ERROR_THREAD_NOT_SUBSCRIBE = 100035;
static const int ACL_ERROR_WAIT_CALLBACK_TIMEOUT = 100036;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;
static const int ACL_ERROR_NOT_STATIC_AIPP = 100038;
static const int ACL_ERROR_COMPILING_STUB_MODE = 100039;
static const int ACL_ERROR_GROUP_NOT_SET = 100040;
static const int ACL_ERROR_GROUP_NOT_CREATE = 100041;
static const int ACL_ERROR_PROF_ALREADY_RUN = 100042;
static const int ACL_ERROR_PROF_NOT_RUN = 100043;
static const int ACL_ERROR_DUMP_ALREADY_RUN = 100044;
static const int ACL_ERROR_DUMP_NOT_RUN = 100045;
static const int ACL_ERROR_PROF_REPEAT_SUBSCRIBE = 148046;
static const int ACL_ERROR_PROF_API_CONFLICT = 148047;
static const int ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG = 148048;
static const int ACL_ERROR_INVALID_OPP_PATH = 148049;
static const int ACL_ERROR_OP_UNSUPPORTED_DYNAMIC = 148050;
static const int ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED = 148051;
static const int ACL_ERROR_UNSUPPORTED_JPEG = 148052;
static const int ACL_ERROR_INVALID_BUNDLE_MODEL_ID = 148053;

static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_API_NOT_SUPPORT = 200001;
static const int ACL_ERROR_INVALID_DEVICE = 200002;
static const int ACL_ERROR_MEMORY_ADDRESS_UNALIGNED = 200003;
static const int ACL_ERROR_RESOURCE_NOT_MATCH = 200004;
static const int ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;
static const int ACL_ERROR_PROF_MODULES_UNSUPPORTED = 200007;

static const int ACL_ERROR_STORAGE_OVER_LIMIT = 300000;

static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_FAILURE = 500001;
static const int ACL_ERROR_GE_FAILURE = 500002;
static const int ACL_ERROR_RT_FAILURE = 500003;
static const int ACL_ERROR_DRV_FAILURE = 500004;
static const int ACL_ERROR_PROFILING_FAILURE = 500005;

/* ---------------------------------------------------------------------------------------------------------------- */
/* Enumerations                                                                                                     */
/* ---------------------------------------------------------------------------------------------------------------- */

/* Element data types. Gaps in the numbering are intentional (values are part of the ABI). */
typedef enum {
  ACL_DT_UNDEFINED = -1,
  ACL_FLOAT = 0,
  ACL_FLOAT16 = 1,
  ACL_INT8 = 2,
  ACL_INT32 = 3,
  ACL_UINT8 = 4,
  ACL_INT16 = 6,
  ACL_UINT16 = 7,
  ACL_UINT32 = 8,
  ACL_INT64 = 9,
  ACL_UINT64 = 10,
  ACL_DOUBLE = 11,
  ACL_BOOL = 12,
  ACL_STRING = 13,
  ACL_COMPLEX64 = 16,
  ACL_COMPLEX128 = 17,
  ACL_BF16 = 27,
  ACL_INT4 = 29,
  ACL_UINT1 = 30,
  ACL_COMPLEX32 = 33,
  ACL_HIFLOAT8 = 34,
  ACL_FLOAT8_E5M2 = 35,
  ACL_FLOAT8_E4M3FN = 36,
  ACL_FLOAT8_E8M0 = 37,
  ACL_FLOAT6_E3M2 = 38,
  ACL_FLOAT6_E2M3 = 39,
  ACL_FLOAT4_E2M1 = 40,
  ACL_FLOAT4_E1M2 = 41,
} aclDataType;

/* Tensor memory layouts. Note that ACL_FRACTAL_Z_3D has no FORMAT_ infix. */
typedef enum {
  ACL_FORMAT_UNDEFINED = -1,
  ACL_FORMAT_NCHW = 0,
  ACL_FORMAT_NHWC = 1,
  ACL_FORMAT_ND = 2,
  ACL_FORMAT_NC1HWC0 = 3,
  ACL_FORMAT_FRACTAL_Z = 4,
  ACL_FORMAT_NC1HWC0_C04 = 12,
  ACL_FORMAT_HWCN = 16,
  ACL_FORMAT_NDHWC = 27,
  ACL_FORMAT_FRACTAL_NZ = 29,
  ACL_FORMAT_NCDHW = 30,
  ACL_FORMAT_NDC1HWC0 = 32,
  ACL_FRACTAL_Z_3D = 33,
  ACL_FORMAT_NC = 35,
  ACL_FORMAT_NCL = 47,
  ACL_FORMAT_FRACTAL_NZ_C0_16 = 50,
  ACL_FORMAT_FRACTAL_NZ_C0_32 = 51,
  ACL_FORMAT_FRACTAL_NZ_C0_2 = 52,
  ACL_FORMAT_FRACTAL_NZ_C0_4 = 53,
  ACL_FORMAT_FRACTAL_NZ_C0_8 = 54,
} aclFormat;

/* Severity used by aclAppLog / ACL_APP_LOG. */
typedef enum {
  ACL_DEBUG = 0,
  ACL_INFO = 1,
  ACL_WARNING = 2,
  ACL_ERROR = 3,
} aclLogLevel;

/* Where a buffer lives. */
typedef enum {
  ACL_MEMTYPE_DEVICE = 0,
  ACL_MEMTYPE_HOST = 1,
  ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT = 2,
} aclMemType;

/*
 * Runtime options for aclrtSetSysParamOpt / aclrtCtxSetSysParamOpt.
 * ACL_OPT_DETERMINISTIC takes 0 (off), 1 (deterministic), 2 (strong consistency) or 3 (batch consistency).
 */
typedef enum {
  ACL_OPT_DETERMINISTIC = 0,
  ACL_OPT_ENABLE_DEBUG_KERNEL = 1,
  ACL_OPT_STRONG_CONSISTENCY ACL_DEPRECATED_MESSAGE("use ACL_OPT_DETERMINISTIC with value 2") = 2,
  ACL_OPT_ENABLE_KERNEL_EARLY_START = 3,
} aclSysParamOpt;

/* Optional capabilities reported by aclGetCannAttributeList / aclGetCannAttribute. */
typedef enum {
  ACL_CANN_ATTR_UNDEFINED = -1,
  ACL_CANN_ATTR_INF_NAN = 0,
  ACL_CANN_ATTR_BF16 = 1,
  ACL_CANN_ATTR_JIT_COMPILE = 2,
} aclCannAttr;

/* Keys for aclGetDeviceCapability. */
typedef enum {
  ACL_DEVICE_INFO_UNDEFINED = -1,
  ACL_DEVICE_INFO_AI_CORE_NUM = 0,
  ACL_DEVICE_INFO_VECTOR_CORE_NUM = 1,
  ACL_DEVICE_INFO_L2_SIZE = 2,
} aclDeviceInfo;

/* ---------------------------------------------------------------------------------------------------------------- */
/* Functions                                                                                                        */
/* ---------------------------------------------------------------------------------------------------------------- */

/* Half -> float. Saturating convention: +Inf -> 65536.0f, -Inf -> -65536.0f, NaN -> 98304.0f. */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);

/* Float -> half with saturation: NaN and +Inf -> 0x7BFF (65504), -Inf -> 0xFBFF (-65504). */
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

/* Wrap caller-owned memory; returns NULL on allocation failure. The memory itself is not owned. */
ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);

/* Free the wrapper only; the wrapped memory stays with the caller. */
ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);

/* Point an existing wrapper at new memory (the old memory is not released). */
ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size);

ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);

ACL_DEPRECATED_MESSAGE("superseded by aclGetDataBufferSizeV2")
ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer);

ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer);

/* Bytes per element of dataType; 0 for ACL_STRING and ACL_DT_UNDEFINED. */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

/* Application log sink; the formatted text is truncated to 1024 bytes. */
ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                                   const char *fmt, ...);

/* SoC name of the current environment, NULL on failure. */
ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void);

#define ACL_APP_LOG(level, fmt, ...) aclAppLog(level, __FUNCTION__, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

ACL_FUNC_VISIBILITY aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num);

/* *value receives 1 when the attribute is available, 0 otherwise. */
ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value);

ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACL_ACL_BASE_RT_H_ */
