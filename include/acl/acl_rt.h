/*
 * Canopy - CPU implementation of the Ascend CANN runtime API.
 *
 * acl/acl_rt.h: runtime (aclrt*) interface. Names, types, parameter order and
 * numeric values follow the public CANN runtime headers so that Ascend client
 * code compiles unchanged against Canopy.
 */
#ifndef CANOPY_ACL_ACL_RT_H_
#define CANOPY_ACL_ACL_RT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Macros --------------------------------------------------------------------------------------------------------
 */

/* API version of this header set */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/* Event creation flags (aclrtCreateEventWithFlag / aclrtCreateEventExWithFlag) */
#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

/* Event record / wait flags */
#define ACL_EVENT_RECORD_DEFAULT 0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U
#define ACL_EVENT_WAIT_DEFAULT 0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U

/* Stream creation flags (aclrtCreateStreamWithConfig) */
#define ACL_STREAM_FAST_LAUNCH 0x00000001U
#define ACL_STREAM_FAST_SYNC 0x00000002U
#define ACL_STREAM_PERSISTENT 0x00000004U
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

/* aclrtValueWait comparison flags */
#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001U
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U

/* Stream failure modes (aclrtSetStreamFailureMode) */
#define ACL_CONTINUE_ON_FAILURE 0x00000000U
#define ACL_STOP_ON_FAILURE 0x00000001U

/* Notify creation flags */
#define ACL_NOTIFY_DEFAULT 0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U

/* Device feature query results */
#define ACL_DEV_FEATURE_SUPPORT 0x00000001
#define ACL_DEV_FEATURE_NOT_SUPPORT 0x00000000

/* IPC / sharing flags */
#define ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x02UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x02UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL
#define ACL_RT_VMM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO 0
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS 1
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH 2
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH 3
#define ACL_IPC_EVENT_HANDLE_SIZE 64U

/* Host memory registration flags (aclrtHostRegisterV2) */
#define ACL_HOST_REG_MAPPED 0x2UL
#define ACL_HOST_REG_IOMEMORY 0x4UL
#define ACL_HOST_REG_READONLY 0x8UL
#define ACL_HOST_REG_PINNED 0x10000000UL

/* Memory related constants */
#define ACL_RT_MAX_RECORD_PA_NUM_PER_DEV 20U
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01U
#define ACL_RT_MEM_LINK_IDX_0 0U
#define ACL_RT_MEM_LINK_IDX_1 1U
#define ACL_RT_MEM_TYPE_DEV 0x2U
#define ACL_RT_MEM_TYPE_DVPP 0x8U
#define ACL_RT_MEM_TYPE_RSVD 0x10U
#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128
#define UCE_INFO_RESERVED_SIZE 14
#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20

/* Host-device link types (ACL_DEV_ATTR_HD_CONNECT_TYPE) */
#define ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0
#define ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1
#define ACL_HOST_DEVICE_CONNECT_TYPE_UB 2

/* Device form factors (ACL_DEV_ATTR_DEVICE_FORM_FACTOR) */
#define ACL_DEVICE_FORM_FACTOR_POD 0
#define ACL_DEVICE_FORM_FACTOR_A_K 1
#define ACL_DEVICE_FORM_FACTOR_A_X 2
#define ACL_DEVICE_FORM_FACTOR_PCIE_CARD 3

/* Device topology bits (aclrtGetDevicesTopo) */
#define ACL_RT_DEVS_TOPOLOGY_HCCS 0x01ULL
#define ACL_RT_DEVS_TOPOLOGY_PIX 0x02ULL
#define ACL_RT_DEVS_TOPOLOGY_PIB 0x04ULL
#define ACL_RT_DEVS_TOPOLOGY_PHB 0x08ULL
#define ACL_RT_DEVS_TOPOLOGY_SYS 0x10ULL
#define ACL_RT_DEVS_TOPOLOGY_SIO 0x20ULL
#define ACL_RT_DEVS_TOPOLOGY_HCCS_SW 0x40ULL

/* Kernel binary magic numbers */
#define ACL_RT_BINARY_MAGIC_ELF_AICORE 0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 0x41494343U

/* Misc sizes */
#define ACL_RT_CMO_MAX_BARRIER_NUM 6U
#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

/* --- Opaque handles and incomplete types ---------------------------------------------------------------------------
 */

typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;
typedef struct tagRtGroupInfo aclrtGroupInfo;
typedef struct rtExceptionInfo aclrtExceptionInfo;
typedef void *aclrtDrvMemHandle;
typedef void *aclrtBinary;
typedef void *aclrtBinHandle;
typedef void *aclrtFuncHandle;
typedef void *aclrtArgsHandle;
typedef void *aclrtParamHandle;

/* --- Enumerations: Device and process ------------------------------------------------------------------------------
 */

typedef enum aclrtRunMode {
  ACL_DEVICE = 0,
  ACL_HOST = 1,
} aclrtRunMode;

typedef enum aclrtTsId {
  ACL_TS_ID_AICORE = 0,
  ACL_TS_ID_AIVECTOR = 1,
  ACL_TS_ID_RESERVED = 2,
} aclrtTsId;

typedef enum aclrtDeviceStatus {
  ACL_RT_DEVICE_STATUS_NORMAL = 0,
  ACL_RT_DEVICE_STATUS_ABNORMAL = 1,
  ACL_RT_DEVICE_STATUS_END = 0xFFFF,
} aclrtDeviceStatus;

typedef enum {
  ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
  ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
  ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
  ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
  ACL_DEV_ATTR_WARP_SIZE = 202,
  ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203,
  ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE ACL_DEPRECATED_MESSAGE("renamed to ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE") = 204,
  ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,
  ACL_DEV_ATTR_MAX_GRID_DIM_X = 205,
  ACL_DEV_ATTR_MAX_GRID_DIM_Y = 206,
  ACL_DEV_ATTR_MAX_GRID_DIM_Z = 207,
  ACL_DEV_ATTR_MAX_BLOCK_PER_GRID = 208,
  ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK = 209,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_X = 210,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_Y = 211,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_Z = 212,
  ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
  ACL_DEV_ATTR_L2_CACHE_SIZE = 302,
  ACL_DEV_ATTR_SMP_ID = 401,
  ACL_DEV_ATTR_PHY_CHIP_ID = 402,
  ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID = 403,
  ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403,
  ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404,
  ACL_DEV_ATTR_SUPER_POD_ID = 405,
  ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406,
  ACL_DEV_ATTR_MAINBOARD_ID = 407,
  ACL_DEV_ATTR_HD_CONNECT_TYPE = 408,
  ACL_DEV_ATTR_DEVICE_FORM_FACTOR = 409,
  ACL_DEV_ATTR_IS_VIRTUAL = 501,
  ACL_DEV_ATTR_NPU_ARCH = 601,
} aclrtDevAttr;

typedef enum {
  ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,
  ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21,
} aclrtDevFeatureType;

typedef enum {
  ACL_RT_DEV_RES_CUBE_CORE = 0,
  ACL_RT_DEV_RES_VECTOR_CORE = 1,
} aclrtDevResLimitType;

typedef enum aclrtDeviceLimit {
  ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE = 0,
  ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE = 1,
  ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE = 2,
  ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE = 3,
  ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE = 4,
} aclrtDeviceLimit;

typedef enum {
  ACL_RT_DEVICE_STATE_SET_PRE = 0,
  ACL_RT_DEVICE_STATE_SET_POST = 1,
  ACL_RT_DEVICE_STATE_RESET_PRE = 2,
  ACL_RT_DEVICE_STATE_RESET_POST = 3,
} aclrtDeviceState;

typedef enum {
  ACL_RT_DEVICE_TASK_ABORT_PRE = 0,
  ACL_RT_DEVICE_TASK_ABORT_POST = 1,
} aclrtDeviceTaskAbortStage;

typedef enum aclrtProcessState {
  ACL_RT_PROCESS_STATE_RUNNING = 0,
  ACL_RT_PROCESS_STATE_LOCKED = 1,
} aclrtProcessState;

typedef enum aclrtFloatOverflowMode {
  ACL_RT_OVERFLOW_MODE_SATURATION = 0,
  ACL_RT_OVERFLOW_MODE_INFNAN = 1,
  ACL_RT_OVERFLOW_MODE_UNDEF = 2,
} aclrtFloatOverflowMode;

typedef enum aclrtGroupAttr {
  ACL_GROUP_AICORE_INT = 0,
  ACL_GROUP_AIV_INT = 1,
  ACL_GROUP_AIC_INT = 2,
  ACL_GROUP_SDMANUM_INT = 3,
  ACL_GROUP_ASQNUM_INT = 4,
  ACL_GROUP_GROUPID_INT = 5,
} aclrtGroupAttr;

typedef enum {
  ACL_RT_HAC_TYPE_STARS = 0,
  ACL_RT_HAC_TYPE_AICPU = 1,
  ACL_RT_HAC_TYPE_AIC = 2,
  ACL_RT_HAC_TYPE_AIV = 3,
  ACL_RT_HAC_TYPE_PCIEDMA = 4,
  ACL_RT_HAC_TYPE_RDMA = 5,
  ACL_RT_HAC_TYPE_SDMA = 6,
  ACL_RT_HAC_TYPE_DVPP = 7,
  ACL_RT_HAC_TYPE_UDMA = 8,
  ACL_RT_HAC_TYPE_CCU = 9,
} aclrtHacType;

typedef enum {
  ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED = 0,
  ACL_RT_HOST_MEM_MAP_SUPPORTED = 1,
} aclrtHostMemMapCapability;

typedef enum aclrtAtomicOperationCapability {
  ACL_RT_ATOMIC_CAPABILITY_SIGNED = 0x1,
  ACL_RT_ATOMIC_CAPABILITY_UNSIGNED = 0x2,
  ACL_RT_ATOMIC_CAPABILITY_REDUCATION = 0x4,
  ACL_RT_ATOMIC_CAPABILITY_REDUCTION = 0x4,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR8 = 0x8,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR16 = 0x10,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR32 = 0x20,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR64 = 0x40,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR128 = 0x80,
  ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 = 0x100,
} aclrtAtomicOperationCapability;

typedef enum aclrtAtomicOperation {
  ACL_RT_ATOMIC_OPERATION_INTEGER_ADD = 0,
  ACL_RT_ATOMIC_OPERATION_INTEGER_MIN = 1,
  ACL_RT_ATOMIC_OPERATION_INTEGER_MAX = 2,
  ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
  ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
  ACL_RT_ATOMIC_OPERATION_AND = 5,
  ACL_RT_ATOMIC_OPERATION_OR = 6,
  ACL_RT_ATOMIC_OPERATION_XOR = 7,
  ACL_RT_ATOMIC_OPERATION_EXCHANGE = 8,
  ACL_RT_ATOMIC_OPERATION_CAS = 9,
  ACL_RT_ATOMIC_OPERATION_FLOAT_ADD = 10,
  ACL_RT_ATOMIC_OPERATION_FLOAT_MIN = 11,
  ACL_RT_ATOMIC_OPERATION_FLOAT_MAX = 12,
  ACL_RT_ATOMIC_OPERATION_DMA_ADD = 30,
  ACL_RT_ATOMIC_OPERATION_DMA_MIN = 31,
  ACL_RT_ATOMIC_OPERATION_DMA_MAX = 32,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD = 40,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN = 41,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX = 42,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS = 43,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH = 44,
} aclrtAtomicOperation;

typedef enum aclCANNPackageName {
  ACL_PKG_NAME_CANN = 0,
  ACL_PKG_NAME_RUNTIME = 1,
  ACL_PKG_NAME_COMPILER = 2,
  ACL_PKG_NAME_HCCL = 3,
  ACL_PKG_NAME_TOOLKIT = 4,
  ACL_PKG_NAME_OPP = 5,
  ACL_PKG_NAME_OPP_KERNEL = 6,
  ACL_PKG_NAME_DRIVER = 7,
} aclCANNPackageName;

typedef enum aclRegisterCallbackType {
  ACL_REG_TYPE_ACL_MODEL = 0,
  ACL_REG_TYPE_ACL_OP_EXECUTOR = 1,
  ACL_REG_TYPE_ACL_OP_CBLAS = 2,
  ACL_REG_TYPE_ACL_OP_COMPILER = 3,
  ACL_REG_TYPE_ACL_TDT_CHANNEL = 4,
  ACL_REG_TYPE_ACL_TDT_QUEUE = 5,
  ACL_REG_TYPE_ACL_DVPP = 6,
  ACL_REG_TYPE_ACL_RETR = 7,
  ACL_REG_TYPE_OTHER = 0xFFFF,
} aclRegisterCallbackType;

/* --- Enumerations: Errors ------------------------------------------------------------------------------------------
 */

typedef enum aclrtLastErrLevel {
  ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

typedef enum {
  ACL_RT_NO_ERROR = 0,
  ACL_RT_ERROR_MEMORY = 1,
  ACL_RT_ERROR_L2 = 2,
  ACL_RT_ERROR_AICORE = 3,
  ACL_RT_ERROR_LINK = 4,
  ACL_RT_ERROR_L3_PORT = 5,
  ACL_RT_ERROR_OTHERS = 0xFFFF,
} aclrtErrorType;

typedef enum aclrtAicoreErrorType {
  ACL_RT_AICORE_ERROR_UNKNOWN = 0,
  ACL_RT_AICORE_ERROR_SW = 1,
  ACL_RT_AICORE_ERROR_HW_LOCAL = 2,
} aclrtAicoreErrorType;

/* --- Enumerations: Streams and events ------------------------------------------------------------------------------
 */

typedef enum aclrtEventStatus {
  ACL_EVENT_STATUS_COMPLETE = 0,
  ACL_EVENT_STATUS_NOT_READY = 1,
  ACL_EVENT_STATUS_RESERVED = 2,
} aclrtEventStatus;

typedef enum aclrtEventRecordedStatus {
  ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
  ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

typedef enum aclrtEventWaitStatus {
  ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
  ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
  ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF,
} aclrtEventWaitStatus;

typedef enum aclrtStreamStatus {
  ACL_STREAM_STATUS_COMPLETE = 0,
  ACL_STREAM_STATUS_NOT_READY = 1,
  ACL_STREAM_STATUS_RESERVED = 0xFFFF,
} aclrtStreamStatus;

typedef enum aclrtCallbackBlockType {
  ACL_CALLBACK_NO_BLOCK = 0,
  ACL_CALLBACK_BLOCK = 1,
} aclrtCallbackBlockType;

typedef enum {
  ACL_RT_STREAM_WORK_ADDR_PTR = 0,
  ACL_RT_STREAM_WORK_SIZE = 1,
  ACL_RT_STREAM_FLAG = 2,
  ACL_RT_STREAM_PRIORITY = 3,
} aclrtStreamConfigAttr;

typedef enum {
  ACL_STREAM_ATTR_FAILURE_MODE = 1,
  ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
  ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
  ACL_STREAM_ATTR_CACHE_OP_INFO = 4,
  ACL_STREAM_ATTR_PRIORITY = 5,
} aclrtStreamAttr;

typedef enum {
  ACL_RT_STREAM_STATE_CREATE_POST = 1,
  ACL_RT_STREAM_STATE_DESTROY_PRE = 2,
} aclrtStreamState;

typedef enum {
  ACL_RT_EQUAL = 0,
  ACL_RT_NOT_EQUAL = 1,
  ACL_RT_GREATER = 2,
  ACL_RT_GREATER_OR_EQUAL = 3,
  ACL_RT_LESS = 4,
  ACL_RT_LESS_OR_EQUAL = 5,
} aclrtCondition;

typedef enum {
  ACL_RT_SWITCH_INT32 = 0,
  ACL_RT_SWITCH_INT64 = 1,
} aclrtCompareDataType;

typedef enum {
  ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE = 0,
  ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE = 1,
  ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE = 2,
  ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE = 4,
} aclrtCntNotifyRecordMode;

typedef enum {
  ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE = 0,
  ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE = 1,
  ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE = 2,
  ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE = 3,
  ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE = 4,
} aclrtCntNotifyWaitMode;

/* --- Enumerations: Memory ------------------------------------------------------------------------------------------
 */

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE = 1,
  ACL_MEMCPY_DEVICE_TO_HOST = 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
  ACL_MEMCPY_DEFAULT = 4,
  ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,
  ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
  ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7,
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY = 1,
  ACL_MEM_MALLOC_NORMAL_ONLY = 2,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
  ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
  ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
  ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x100,
  ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
  ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000,
} aclrtMemMallocPolicy;

typedef enum aclrtMemAttr {
  ACL_DDR_MEM = 0,
  ACL_HBM_MEM = 1,
  ACL_DDR_MEM_HUGE = 2,
  ACL_DDR_MEM_NORMAL = 3,
  ACL_HBM_MEM_HUGE = 4,
  ACL_HBM_MEM_NORMAL = 5,
  ACL_DDR_MEM_P2P_HUGE = 6,
  ACL_DDR_MEM_P2P_NORMAL = 7,
  ACL_HBM_MEM_P2P_HUGE = 8,
  ACL_HBM_MEM_P2P_NORMAL = 9,
  ACL_HBM_MEM_HUGE1G = 10,
  ACL_HBM_MEM_P2P_HUGE1G = 11,
  ACL_MEM_NORMAL = 12,
  ACL_MEM_HUGE = 13,
  ACL_MEM_HUGE1G = 14,
  ACL_MEM_P2P_NORMAL = 15,
  ACL_MEM_P2P_HUGE = 16,
  ACL_MEM_P2P_HUGE1G = 17,
} aclrtMemAttr;

enum aclrtMemPgType {
  NORMAL_PAGE_TYPE = 0,
  HUGE_PAGE_TYPE = 1,
  HUGE1G_PAGE_TYPE = 2,
};

enum aclrtMemType {
  HBM_TYPE = 0,
  DDR_TYPE = 1,
  P2P_HBM_TYPE = 2,
  P2P_DDR_TYPE = 3,
};

typedef enum {
  ACL_HOST_REGISTER_MAPPED = 0,
  ACL_HOST_REGISTER_IOMEMORY = 0x4,
  ACL_HOST_REGISTER_READONLY = 0x8,
} aclrtHostRegisterType;

typedef enum {
  ACL_RT_MEM_ATTR_RSV = 0,
  ACL_RT_MEM_ATTR_MODULE_ID = 1,
  ACL_RT_MEM_ATTR_DEVICE_ID = 2,
  ACL_RT_MEM_ATTR_VA_FLAG = 3,
} aclrtMallocAttrType;

typedef enum aclrtMemManagedAdviseType {
  ACL_MEM_ADVISE_SET_READ_MOSTLY = 0,
  ACL_MEM_ADVISE_UNSET_READ_MOSTLY = 1,
  ACL_MEM_ADVISE_SET_PREFERRED_LOCATION = 2,
  ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION = 3,
  ACL_MEM_ADVISE_SET_ACCESSED_BY = 4,
  ACL_MEM_ADVISE_UNSET_ACCESSED_BY = 5,
} aclrtMemManagedAdviseType;

typedef enum aclrtMemManagedLocationType {
  ACL_MEM_LOCATIONTYPE_INVALID = 0,
  ACL_MEM_LOCATIONTYPE_DEVICE = 1,
  ACL_MEM_LOCATIONTYPE_HOST = 2,
  ACL_MEM_LOCATIONTYPE_HOST_NUMA = 3,
  ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT = 4,
} aclrtMemManagedLocationType;

typedef enum aclrtMemManagedRangeAttribute {
  ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION = 2,
  ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY = 3,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE = 4,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID = 5,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION = 6,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE = 7,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID = 8,
} aclrtMemManagedRangeAttribute;

typedef enum aclrtMemLocationType {
  ACL_MEM_LOCATION_TYPE_HOST = 0,
  ACL_MEM_LOCATION_TYPE_DEVICE = 1,
  ACL_MEM_LOCATION_TYPE_UNREGISTERED = 2,
  ACL_MEM_LOCATION_TYPE_MANAGED = 3,
  ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

typedef enum aclrtMemAllocationType {
  ACL_MEM_ALLOCATION_TYPE_PINNED = 0,
} aclrtMemAllocationType;

typedef enum aclrtMemHandleType {
  ACL_MEM_HANDLE_TYPE_NONE = 0,
  ACL_MEM_HANDLE_TYPE_POSIX = 2,
} aclrtMemHandleType;

typedef enum aclrtMemSharedHandleType {
  ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1,
  ACL_MEM_SHARE_HANDLE_TYPE_FABRIC = 0x2,
} aclrtMemSharedHandleType;

typedef enum aclrtMemGranularityOptions {
  ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM = 0,
  ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED = 1,
  ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF,
} aclrtMemGranularityOptions;

typedef enum {
  ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0,
  ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
  ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3,
} aclrtMemAccessFlags;

typedef enum {
  ACL_RT_MEM_ACCESS_LINK_SIO = 0,
  ACL_RT_MEM_ACCESS_LINK_HCCS = 1,
  ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH = 2,
  ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH = 3,
} aclrtMemLinkType;

typedef enum {
  ACL_RT_IPC_MEM_ATTR_ACCESS_LINK = 0,
} aclrtIpcMemAttrType;

typedef enum aclrtCmoType {
  ACL_RT_CMO_TYPE_PREFETCH = 0,
  ACL_RT_CMO_TYPE_WRITEBACK = 1,
  ACL_RT_CMO_TYPE_INVALID = 2,
  ACL_RT_CMO_TYPE_FLUSH = 3,
} aclrtCmoType;

typedef enum {
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10,
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11,
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12,
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL = 13,
} aclrtReduceKind;

/* --- Enumerations: Kernels and tasks -------------------------------------------------------------------------------
 */

typedef enum aclrtBinaryLoadOptionType {
  ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
  ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,
} aclrtBinaryLoadOptionType;

typedef enum {
  ACL_RT_ENGINE_TYPE_AIC = 0,
  ACL_RT_ENGINE_TYPE_AIV = 1,
} aclrtEngineType;

typedef enum aclrtLaunchKernelAttrId {
  ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
  ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE ACL_DEPRECATED_MESSAGE(
      "renamed to ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE") = 2,
  ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
  ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
  ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4,
  ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
  ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
  ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,
  ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8,
  ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9,
} aclrtLaunchKernelAttrId;

typedef enum {
  ACL_FUNC_ATTR_KERNEL_TYPE = 1,
  ACL_FUNC_ATTR_KERNEL_RATIO = 2,
  ACL_FUNC_ATTR_KERNEL_SCHED_MODE = 3,
} aclrtFuncAttribute;

typedef enum {
  ACL_KERNEL_TYPE_AICORE = 0,
  ACL_KERNEL_TYPE_CUBE = 1,
  ACL_KERNEL_TYPE_VECTOR = 2,
  ACL_KERNEL_TYPE_MIX = 3,
  ACL_KERNEL_TYPE_AICPU = 100,
} aclrtKernelType;

typedef enum {
  ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK = 0,
  ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS = 1,
  ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS = 2,
  ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS = 3,
} aclrtRandomNumFuncType;

typedef enum {
  ACL_RT_UPDATE_RANDOM_TASK = 1,
  ACL_RT_UPDATE_AIC_AIV_TASK = 2,
} aclrtUpdateTaskAttrId;

typedef enum {
  ACL_RT_SNAPSHOT_LOCK_PRE = 0,
  ACL_RT_SNAPSHOT_BACKUP_PRE = 1,
  ACL_RT_SNAPSHOT_BACKUP_POST = 2,
  ACL_RT_SNAPSHOT_RESTORE_PRE = 3,
  ACL_RT_SNAPSHOT_RESTORE_POST = 4,
  ACL_RT_SNAPSHOT_UNLOCK_POST = 5,
} aclrtSnapShotStage;

/* --- Structures and unions -----------------------------------------------------------------------------------------
 */

#ifndef __BISHENG_CCEC__
/* Launch geometry for SIMT kernels; the device compiler provides its own definition. */
typedef struct dim3 {
  uint32_t x;
  uint32_t y;
  uint32_t z;
#ifdef __cplusplus
#if __cplusplus >= 201103L
  constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#else
  dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#endif
#endif
} dim3;
#endif

typedef struct aclrtMemManagedLocation {
  aclrtMemManagedLocationType type;
  int32_t id;
} aclrtMemManagedLocation;

typedef union {
  uint16_t moduleId;
  uint32_t deviceId;
  uint32_t vaFlag;
  uint8_t rsv[8];
} aclrtMallocAttrValue;

typedef struct {
  aclrtMallocAttrType attr;
  aclrtMallocAttrValue value;
} aclrtMallocAttribute;

typedef struct {
  aclrtMallocAttribute *attrs;
  size_t numAttrs;
} aclrtMallocConfig;

typedef struct {
  uint32_t sdid;
  int32_t *pid;
  size_t num;
} aclrtServerPid;

typedef struct aclrtStreamConfigHandle {
  void *workptr;
  size_t workSize;
  size_t flag;
  uint32_t priority;
} aclrtStreamConfigHandle;

typedef struct aclrtUtilizationInfo {
  int32_t cubeUtilization;
  int32_t vectorUtilization;
  int32_t aicpuUtilization;
  int32_t memoryUtilization;
  aclrtUtilizationExtendInfo *utilizationExtend;
} aclrtUtilizationInfo;

typedef struct aclrtMemLocation {
  uint32_t id;
  aclrtMemLocationType type;
} aclrtMemLocation;

typedef struct aclrtPtrAttributes {
  aclrtMemLocation location;
  uint32_t pageSize;
  uint32_t rsv[4];
} aclrtPtrAttributes;

typedef struct aclrtMemUsageInfo {
  char name[32];
  uint64_t curMemSize;
  uint64_t memPeakSize;
  size_t reserved[8];
} aclrtMemUsageInfo;

typedef struct aclrtMemFabricHandle {
  uint8_t data[128];
} aclrtMemFabricHandle;

typedef struct aclrtPhysicalMemProp {
  aclrtMemHandleType handleType;
  aclrtMemAllocationType allocationType;
  aclrtMemAttr memAttr;
  aclrtMemLocation location;
  uint64_t reserve;
} aclrtPhysicalMemProp;

typedef struct aclrtMemUceInfo {
  void *addr;
  size_t len;
  size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

typedef struct {
  size_t arraySize;
  aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

typedef union aclrtErrorInfoDetail {
  aclrtMemUceInfoArray uceInfo;
  aclrtAicoreErrorType aicoreErrType;
} aclrtErrorInfoDetail;

typedef struct aclrtErrorInfo {
  uint8_t tryRepair;
  uint8_t hasDetail;
  uint8_t reserved[2];
  aclrtErrorType errorType;
  aclrtErrorInfoDetail detail;
} aclrtErrorInfo;

typedef union aclrtBinaryLoadOptionValue {
  uint32_t isLazyLoad;
  uint32_t magic;
  int32_t cpuKernelMode;
  uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
  aclrtBinaryLoadOptionType type;
  aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

typedef struct aclrtBinaryLoadOptions {
  aclrtBinaryLoadOption *options;
  size_t numOpt;
} aclrtBinaryLoadOptions;

typedef struct {
  uint32_t timeoutLow;
  uint32_t timeoutHigh;
} aclrtTimeoutUs;

typedef union aclrtLaunchKernelAttrValue {
  uint8_t schemMode;
  ACL_DEPRECATED_MESSAGE("renamed to dynUBufSize")
  uint32_t localMemorySize;
  uint32_t dynUBufSize;
  aclrtEngineType engineType;
  uint32_t blockDimOffset;
  uint8_t isBlockTaskPrefetch;
  uint8_t isDataDump;
  uint16_t timeout;
  aclrtTimeoutUs timeoutUs;
  uint8_t enableProfiling;
  uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct aclrtLaunchKernelAttr {
  aclrtLaunchKernelAttrId id;
  aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

typedef struct aclrtLaunchKernelCfg {
  aclrtLaunchKernelAttr *attrs;
  size_t numAttrs;
} aclrtLaunchKernelCfg;

typedef union {
  uint64_t failureMode;
  uint32_t overflowSwitch;
  uint32_t userCustomTag;
  uint32_t cacheOpInfoSwitch;
  uint32_t streamPriority;
  uint32_t reserve[4];
} aclrtStreamAttrValue;

typedef struct {
  aclrtCmoType cmoType;
  uint32_t barrierId;
} aclrtBarrierCmoInfo;

typedef struct {
  size_t barrierNum;
  aclrtBarrierCmoInfo cmoInfo[ACL_RT_CMO_MAX_BARRIER_NUM];
} aclrtBarrierTaskInfo;

typedef struct {
  aclrtMemLocation dstLoc;
  aclrtMemLocation srcLoc;
  uint8_t rsv[16];
} aclrtMemcpyBatchAttr;

typedef struct {
  uint32_t addrOffset;
  uint32_t dataOffset;
} aclrtPlaceHolderInfo;

typedef struct {
  uint8_t isAddr;
  uint8_t valueOrAddr[8];
  uint8_t size;
  uint8_t rsv[6];
} aclrtRandomParaInfo;

typedef struct {
  aclrtRandomParaInfo dropoutRation;
} aclrtDropoutBitmaskInfo;

typedef struct {
  aclrtRandomParaInfo min;
  aclrtRandomParaInfo max;
} aclrtUniformDisInfo;

typedef struct {
  aclrtRandomParaInfo mean;
  aclrtRandomParaInfo stddev;
} aclrtNormalDisInfo;

typedef struct {
  aclrtRandomNumFuncType funcType;
  union {
    aclrtDropoutBitmaskInfo dropoutBitmaskInfo;
    aclrtUniformDisInfo uniformDisInfo;
    aclrtNormalDisInfo normalDisInfo;
  } paramInfo;
} aclrtRandomNumFuncParaInfo;

typedef struct {
  aclDataType dataType;
  aclrtRandomNumFuncParaInfo randomNumFuncParaInfo;
  void *randomParaAddr;
  void *randomResultAddr;
  void *randomCounterAddr;
  aclrtRandomParaInfo randomSeed;
  aclrtRandomParaInfo randomNum;
  uint8_t rsv[8];
} aclrtRandomNumTaskInfo;

typedef struct {
  void *srcAddr;
  size_t size;
  uint32_t rsv[4];
} aclrtRandomTaskUpdateAttr;

typedef struct {
  void *binHandle;
  void *funcEntryAddr;
  void *blockDimAddr;
  uint32_t rsv[4];
} aclrtAicAivTaskUpdateAttr;

typedef union {
  aclrtRandomTaskUpdateAttr randomTaskAttr;
  aclrtAicAivTaskUpdateAttr aicAivTaskAttr;
} aclrtUpdateTaskAttrVal;

typedef struct {
  aclrtUpdateTaskAttrId id;
  aclrtUpdateTaskAttrVal val;
} aclrtTaskUpdateInfo;

typedef struct aclrtSnapShotBackupArgs {
  uint32_t backupFlags;
  char reserved[60];
} aclrtSnapShotBackupArgs;

typedef struct aclrtSnapShotRestoreArgs {
  uint32_t restoreFlags;
  char reserved[60];
} aclrtSnapShotRestoreArgs;

typedef struct aclrtUuid {
  char bytes[16];
} aclrtUuid;

typedef struct {
  aclrtCntNotifyRecordMode mode;
  uint32_t value;
} aclrtCntNotifyRecordInfo;

typedef struct {
  aclrtCntNotifyWaitMode mode;
  uint32_t value;
  uint32_t timeout;
  uint8_t isClear;
  uint8_t rsv[3];
} aclrtCntNotifyWaitInfo;

typedef struct {
  aclrtMemAccessFlags flags;
  aclrtMemLocation location;
  uint8_t rsv[12];
} aclrtMemAccessDesc;

typedef struct aclCANNPackageVersion {
  char version[ACL_PKG_VERSION_MAX_SIZE];
  char majorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char minorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char releaseVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char patchVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char reserved[ACL_PKG_VERSION_MAX_SIZE];
} aclCANNPackageVersion;

typedef struct aclrtIpcEventHandle {
  char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;

struct MemAttrMapping {
  uint32_t pgType;
  uint32_t memType;
  bool isHostAlloc;
  aclrtMemAttr memAttr;
};

/* --- Callback signatures -------------------------------------------------------------------------------------------
 */

typedef void (*aclrtCallback)(void *userData);
typedef void (*aclrtHostFunc)(void *args);
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo *exceptionInfo);
typedef void (*aclrtOpExceptionCallback)(aclrtExceptionInfo *exceptionInfo, void *userData);
typedef void (*aclrtDeviceStateCallback)(int32_t deviceId, aclrtDeviceState state, void *args);
typedef uint32_t (*aclrtSnapShotCallBack)(int32_t deviceId, void *args);
typedef void (*aclrtStreamStateCallback)(aclrtStream stm, aclrtStreamState state, void *args);
typedef int32_t (*aclrtDeviceTaskAbortCallback)(int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t timeout,
                                                void *args);
typedef aclError (*aclInitCallbackFunc)(const char *configStr, size_t len, void *userData);
typedef aclError (*aclFinalizeCallbackFunc)(void *userData);

/* --- Initialisation, versions and error reporting ------------------------------------------------------------------
 */

/* Process-wide initialisation; configPath may be NULL. Repeated calls return ACL_ERROR_REPEAT_INITIALIZE. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
/* Process-wide teardown; drops the init reference count to zero. */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
/* Reference-counted teardown; *refCount (optional) receives the remaining count. */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount);
ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
                                                     void *userData);
ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc);
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc,
                                                         void *userData);
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                                           aclFinalizeCallbackFunc cbFunc);
/* Runtime API version triple (see ACL_MAJOR_VERSION and friends). */
ACL_DEPRECATED_MESSAGE("superseded by aclsysGetVersionStr / aclsysGetVersionNum")
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);
ACL_DEPRECATED_MESSAGE("superseded by aclsysGetVersionStr / aclsysGetVersionNum")
ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version);
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr);
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum);
/* Returns and clears the latest error text of this thread (NULL when there is none). */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);

/* --- Exception information and fault recovery ----------------------------------------------------------------------
 */

ACL_DEPRECATED_MESSAGE("superseded by aclrtExceptionInfoCallbackRegister")
ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback);
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback);
ACL_FUNC_VISIBILITY uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo *info, void **devArgsPtr,
                                                           uint32_t *devArgsLen);
ACL_FUNC_VISIBILITY aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo *info, aclrtFuncHandle *func);
ACL_FUNC_VISIBILITY aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle,
                                                             aclrtOpExceptionCallback callback, void *userData);
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo);
ACL_FUNC_VISIBILITY aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo *errorInfo);
ACL_FUNC_VISIBILITY aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize,
                                                size_t *retSize);
ACL_FUNC_VISIBILITY aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize);
ACL_FUNC_VISIBILITY aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceTaskAbortCallback(const char *regName, aclrtDeviceTaskAbortCallback callback,
                                                             void *args);
ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus);

/* --- Runtime configuration: options, timeouts and resource limits --------------------------------------------------
 */

/* Process-scope runtime option (e.g. ACL_OPT_DETERMINISTIC). */
ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value);
ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value);
/* Context-scope runtime option. */
ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value);
ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value);
ACL_FUNC_VISIBILITY aclError aclrtSetOpWaitTimeout(uint32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout);
ACL_FUNC_VISIBILITY aclError aclrtGetOpTimeOutInterval(uint64_t *interval);
ACL_FUNC_VISIBILITY aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value);
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value);
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value);
ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value);
ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtUseStreamResInCurrentThread(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value);
ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value);

/* --- Device management ---------------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count);
/* Bind the calling thread to a device; implicitly creates the default context/stream. */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);
/* Reference-counted release of a device set with aclrtSetDevice. */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);
/* Release a device regardless of the aclrtSetDevice count. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);
/* timeout in ms, -1 = wait forever. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode);
ACL_FUNC_VISIBILITY aclError aclrtSetTsDevice(aclrtTsId tsId);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                                      int32_t *value);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t *capabilities,
                                                                  const aclrtAtomicOperation *operations,
                                                                  const uint32_t count, int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t *capabilities,
                                                                 const aclrtAtomicOperation *operations,
                                                                 const uint32_t count, int32_t srcDeviceId,
                                                                 int32_t dstDeviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value);
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId);
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);
ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);
ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid);
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid);
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId);
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode);
ACL_FUNC_VISIBILITY aclError aclrtRegDeviceStateCallback(const char *regName, aclrtDeviceStateCallback callback,
                                                         void *args);
ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible);
ACL_FUNC_VISIBILITY aclError aclrtDeviceL2CacheFlush(void *rsv);

/* --- Context management --------------------------------------------------------------------------------------------
 */

/* Create a context on deviceId and make it current for the calling thread. */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context);
ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream);
ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active);
ACL_FUNC_VISIBILITY aclError aclrtCtxGetFloatOverflowAddr(void **overflowAddr);

/* --- Stream management ---------------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);
/* flag is a bitwise OR of ACL_STREAM_* values. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle);
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void);
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
                                                     const void *attrValue, size_t valueSize);
/* Waits for outstanding work before destroying the stream. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
/* Destroys the stream without waiting for outstanding work. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
/* timeout in ms, -1 = wait forever. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
/* Non-blocking completion check of all work queued on the stream. */
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);
ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority);
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags);
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId);
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                                          uint32_t flag);
/* timeout in seconds, 0 = never time out. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);
ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAvailableNum(uint32_t *streamCount);
ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag);
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtPersistentTaskClean(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtSwitchStream(void *leftValue, aclrtCondition cond, void *rightValue,
                                               aclrtCompareDataType dataType, aclrtStream trueStream,
                                               aclrtStream falseStream, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback,
                                                         void *args);
ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t *taskId);
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskOpInfo(const void *const infoPtr, const size_t infoSize);
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskExtendInfo(const char *const extendInfoPtr, const size_t infoSize);
ACL_FUNC_VISIBILITY aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo *info,
                                                  aclrtStream execStream);

/* --- Event management ----------------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);
/* flag is a bitwise OR of ACL_EVENT_* values. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);
ACL_DEPRECATED_MESSAGE("superseded by aclrtQueryEventStatus")
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status);
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);
ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);
/* timeout in ms, -1 = wait forever. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);
/* Milliseconds between two recorded events. */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);
/* Completion timestamp of the event in microseconds. */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp);
ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId);
ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t *eventCount);
ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event);

/* --- Notify and counting notify ------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag);
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify);
ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId);
ACL_FUNC_VISIBILITY aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num);
ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify, char *key, size_t len, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify *notify, const char *key, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t *pid, size_t num);
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid *serverPids,
                                                                size_t num);
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify, uint64_t flag);
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify);
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                                                  aclrtCntNotifyRecordInfo *info);
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
                                                           aclrtCntNotifyWaitInfo *info);
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t *notifyId);

/* --- Labels --------------------------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel *label);
ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label);
ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList);
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList);
ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList,
                                                     aclrtStream stream);

/* --- Host callbacks ------------------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream);
/* Run pending aclrtLaunchCallback callbacks of the calling thread; timeout in ms or -1. */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);
/* Enqueue a host function on a runtime-managed thread (blocks the stream until it ran). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args);
ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);
ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

/* --- Device memory -------------------------------------------------------------------------------------------------
 */

/* Device allocation; size must be non-zero. */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/* Like aclrtMalloc but without the extra 32-byte tail padding. */
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                aclrtMallocConfig *cfg);
ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                         aclrtMallocConfig *cfg);
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);
ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr);
ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void *devPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void *devPtr, size_t size);
/* Free/total bytes of the current device for the given memory attribute. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);
ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum,
                                                  size_t *outputNum);
ACL_FUNC_VISIBILITY aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes);
ACL_FUNC_VISIBILITY aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType, uint32_t *checkResult,
                                               uint32_t reserve);
ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize);

/* --- Host memory ---------------------------------------------------------------------------------------------------
 */

/* Page-locked host allocation; size must be non-zero. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg);
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);
ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr);
ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr);
ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr);
ACL_FUNC_VISIBILITY aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                                         aclrtHostMemMapCapability *capabilities);

/* --- Managed (unified) memory --------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtMemManagedAdvise(const void *const ptr, uint64_t size,
                                                   aclrtMemManagedAdviseType advise, aclrtMemManagedLocation location);
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void *ptr,
                                                    size_t size, void *data, size_t dataSize);
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute *attributes, size_t numAttributes,
                                                     const void *ptr, size_t size, void **data, size_t *dataSizes);
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size,
                                                          aclrtMemManagedLocation location, uint32_t flags,
                                                          aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchBatchAsync(const void **ptrs, size_t *sizes, size_t count,
                                                               aclrtMemManagedLocation *prefetchLocs,
                                                               size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                               uint64_t flags, aclrtStream stream);

/* --- Memory copy and fill ------------------------------------------------------------------------------------------
 */

/* Synchronous copy of count bytes into a destination of capacity destMax. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind);
/* Stream-ordered copy of count bytes into a destination of capacity destMax. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);
ACL_DEPRECATED_MESSAGE("superseded by aclrtMemcpyAsync")
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src, size_t count,
                                                           aclrtMemcpyKind kind, aclrtStream stream);
/* Synchronous pitched copy (width <= dpitch, width <= spitch). */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind);
/* Stream-ordered pitched copy. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                                size_t height, aclrtMemcpyKind kind, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                              size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                              size_t numAttrs, size_t *failIndex);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                                size_t numAttrs);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                   size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                                   size_t numAttrs, size_t *failIndex, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                     size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                                                     size_t *attrsIndexes, size_t numAttrs, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize);
ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr, void *dstAddr,
                                                size_t count, void *config);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
                                                        const void **src, size_t count, size_t srcDataOffset,
                                                        aclrtMemcpyKind kind, aclrtStream stream);
/* Synchronous byte fill of count bytes (count <= maxCount). */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);
/* Stream-ordered byte fill. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N);
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N,
                                                 aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
                                              aclDataType type, aclrtStream stream, void *reserve);
ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

/* --- Device symbols ------------------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtGetSymbolAddress(const void *symbol, void **devPtr);
ACL_FUNC_VISIBILITY aclError aclrtGetSymbolSize(const void *symbol, size_t *size);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbol(void *dst, size_t dstMax, const void *symbol, size_t count,
                                                   size_t offset, aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbolAsync(void *dst, size_t dstMax, const void *symbol, size_t count,
                                                        size_t offset, aclrtMemcpyKind kind, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                                 aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                                      aclrtMemcpyKind kind, aclrtStream stream);

/* --- Virtual memory management -------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
                                                              aclrtMemGranularityOptions option, size_t *granularity);
/* Reserve a virtual address range (alignment must be 0). */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr,
                                                    uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddressNoUCMemory(void **virPtr, size_t size, size_t alignment,
                                                              void *expectPtr, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr);
/* Allocate a physical backing handle (flags must be 0). */
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
                                                 const aclrtPhysicalMemProp *prop, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
/* Map a physical handle into a reserved range (offset and flags must be 0). */
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                         uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtMemMapNoAccess(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                                 uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr);
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count);
ACL_FUNC_VISIBILITY aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag);
ACL_FUNC_VISIBILITY aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
                                                                       aclrtPhysicalMemProp *prop);
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                                             uint64_t flags, uint64_t *shareableHandle);
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
                                                               aclrtMemSharedHandleType shareType,
                                                               void *shareableHandle);
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                                               aclrtDrvMemHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle,
                                                                 aclrtMemSharedHandleType shareType, uint64_t flags,
                                                                 aclrtDrvMemHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid, size_t pidNum);
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle,
                                                               aclrtMemSharedHandleType shareType, int32_t *pid,
                                                               size_t pidNum);
ACL_FUNC_VISIBILITY aclError aclrtMemP2PMap(void *devPtr, size_t size, int32_t dstDevId, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtMemMapSelectedLink(void *virPtrDst, size_t size, void *virPtrSrc, uint32_t linkIdx);
ACL_FUNC_VISIBILITY aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink);

/* --- IPC memory sharing --------------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char *key, aclrtIpcMemAttrType type, uint64_t attr);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportPidInterServer(const char *key, aclrtServerPid *serverPids, size_t num);

/* --- Cache maintenance operations ----------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtCmoAsync(void *src, size_t size, aclrtCmoType cmoType, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithBarrier(void *src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                                      aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo *taskInfo, aclrtStream stream, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtCmoGetDescSize(size_t *size);
ACL_FUNC_VISIBILITY aclError aclrtCmoSetDesc(void *cmoDesc, void *src, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithDesc(void *cmoDesc, aclrtCmoType cmoType, aclrtStream stream,
                                                   const void *reserve);

/* --- Compute groups ------------------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtSetGroup(int32_t groupId);
ACL_FUNC_VISIBILITY aclError aclrtGetGroupCount(uint32_t *count);
ACL_FUNC_VISIBILITY aclrtGroupInfo *aclrtCreateGroupInfo(void);
ACL_FUNC_VISIBILITY aclError aclrtDestroyGroupInfo(aclrtGroupInfo *groupInfo);
ACL_FUNC_VISIBILITY aclError aclrtGetAllGroupInfo(aclrtGroupInfo *groupInfo);
ACL_FUNC_VISIBILITY aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo *groupInfo, int32_t groupIndex,
                                                     aclrtGroupAttr attr, void *attrValue, size_t valueLen,
                                                     size_t *paramRetSize);

/* --- Floating point overflow status --------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtGetFloatOverflowStatus(void *outputAddr, uint64_t outputSize, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtResetFloatOverflowStatus(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtNpuGetFloatOverFlowStatus(void *outputAddr, uint64_t outputSize, uint32_t checkMode,
                                                            aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream);

/* --- Kernel binaries, arguments and launch -------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclrtBinary aclrtCreateBinary(const void *data, size_t dataLen);
ACL_FUNC_VISIBILITY aclError aclrtDestroyBinary(aclrtBinary binary);
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle *binHandle);
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle);
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void *data, size_t length,
                                                     const aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle);
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                                    aclrtFuncHandle *funcHandle);
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                                           aclrtFuncHandle *funcHandle);
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void **binAddr, size_t *binSize);
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char *name, void **dptr,
                                                  size_t *size);
ACL_FUNC_VISIBILITY aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char *funcName,
                                                  const char *kernelName, aclrtFuncHandle *funcHandle);
ACL_FUNC_VISIBILITY aclError aclrtGetFuncBySymbol(const void *symbol, aclrtFuncHandle *funcHandle);
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void **aicAddr, void **aivAddr);
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t *aicSize, size_t *aivSize);
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char *name);
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType,
                                                       int64_t *attrValue);
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle *binHandle);
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamCount(const void *func, size_t *paramCount);
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                                       size_t *paramSize);
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetAvailDynUbufPerBlock(void *func, uint32_t flags, size_t *dynamicUbufSize);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize,
                                                       size_t *actualArgsSize);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                                          void *userHostMem, size_t actualArgsSize);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                                   aclrtParamHandle *paramHandle);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                                              aclrtParamHandle *paramHandle);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                                                 aclrtParamHandle paramHandle, size_t dataSize,
                                                                 void **bufferAddr);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                                       void *param, size_t paramSize);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                               size_t argsSize, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                                 size_t argsSize, aclrtLaunchKernelCfg *cfg, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                         aclrtArgsHandle argsHandle, void *reserve);
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                           aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                           void *hostArgs, size_t argsSize,
                                                           aclrtPlaceHolderInfo *placeHolderArray,
                                                           size_t placeHolderNum);
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithArgsArray(void *func, uint32_t numBlocks, aclrtStream stream,
                                                            aclrtLaunchKernelCfg *cfg, void **args);
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithArgsArray(void *func, dim3 gridDim, dim3 blockDim,
                                                                size_t dynUbufSize, aclrtStream stream,
                                                                aclrtLaunchKernelCfg *cfg, void **args);
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithHostArgs(void *func, dim3 gridDim, dim3 blockDim,
                                                               size_t dynUbufSize, aclrtStream stream,
                                                               aclrtLaunchKernelCfg *cfg, void *hostArgs,
                                                               size_t argsSize, aclrtPlaceHolderInfo *placeHolderArray,
                                                               size_t placeHolderNum);
ACL_FUNC_VISIBILITY aclError aclrtGetHardwareSyncAddr(void **addr);
ACL_FUNC_VISIBILITY aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo *taskInfo, const aclrtStream stream,
                                                 void *reserve);
ACL_FUNC_VISIBILITY aclError aclrtProfTrace(void *userdata, int32_t length, aclrtStream stream);

/* --- Message buffers (mbuf) ----------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtAllocBuf(aclrtMbuf *buf, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtFreeBuf(aclrtMbuf buf);
ACL_FUNC_VISIBILITY aclError aclrtGetBufData(const aclrtMbuf buf, void **dataPtr, size_t *size);
ACL_FUNC_VISIBILITY aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t *len);
ACL_FUNC_VISIBILITY aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len);
ACL_FUNC_VISIBILITY aclError aclrtGetBufUserData(const aclrtMbuf buf, void *dataPtr, size_t size, size_t offset);
ACL_FUNC_VISIBILITY aclError aclrtSetBufUserData(aclrtMbuf buf, const void *dataPtr, size_t size, size_t offset);
ACL_FUNC_VISIBILITY aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf *newBuf);
ACL_FUNC_VISIBILITY aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf);
ACL_FUNC_VISIBILITY aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t *num);
ACL_FUNC_VISIBILITY aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf *buf);

/* --- Process snapshots ---------------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessLock(int pid, void *reserve);
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessUnlock(int pid, void *reserve);
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs *args);
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs *args);
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback,
                                                           void *args);
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback);

#ifdef __cplusplus
}
#endif

/* The model-run-instance (aclmdlRI*) part of the runtime interface lives in acl_mdl.h. */
#include "acl_mdl.h"

#endif /* CANOPY_ACL_ACL_RT_H_ */
