/*
 * Canopy - CPU implementation of the Ascend CANN runtime API.
 *
 * hccl/hccl_types.h: the types of CANN's collective communication library
 * (status codes, data types, reduce operations, root info, communicator config).
 */
#ifndef CANOPY_HCCL_HCCL_TYPES_H_
#define CANOPY_HCCL_HCCL_TYPES_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status of every HCCL function. */
typedef enum {
  HCCL_SUCCESS = 0,
  HCCL_E_PARA = 1,        /* an argument is invalid */
  HCCL_E_PTR = 2,         /* a required pointer is null */
  HCCL_E_MEMORY = 3,      /* memory error */
  HCCL_E_INTERNAL = 4,    /* internal error */
  HCCL_E_NOT_SUPPORT = 5, /* feature not supported */
  HCCL_E_NOT_FOUND = 6,   /* a resource was not found */
  HCCL_E_UNAVAIL = 7,     /* a resource is unavailable */
  HCCL_E_SYSCALL = 8,     /* a system call failed */
  HCCL_E_TIMEOUT = 9,     /* a wait ran out of time */
  HCCL_E_OPEN_FILE_FAILURE = 10,
  HCCL_E_TCP_CONNECT = 11, /* a TCP connection could not be made */
  HCCL_E_ROCE_CONNECT = 12,
  HCCL_E_TCP_TRANSFER = 13, /* a TCP transfer failed */
  HCCL_E_ROCE_TRANSFER = 14,
  HCCL_E_RUNTIME = 15, /* a runtime (acl) call failed */
  HCCL_E_DRV = 16,
  HCCL_E_PROFILING = 17,
  HCCL_E_CCE = 18,
  HCCL_E_NETWORK = 19, /* a network call failed */
  HCCL_E_AGAIN = 20,
  HCCL_E_REMOTE = 21, /* the peer reported an error */
  HCCL_E_SUSPENDING = 22,
  HCCL_E_OPRETRY_FAIL = 23,
  HCCL_E_OOM = 24,
  HCCL_E_RESERVED
} HcclResult;

/* A communicator. */
typedef void *HcclComm;

typedef enum {
  HCCL_REDUCE_SUM = 0,
  HCCL_REDUCE_PROD = 1,
  HCCL_REDUCE_MAX = 2,
  HCCL_REDUCE_MIN = 3,
  HCCL_REDUCE_RESERVED = 255
} HcclReduceOp;

typedef enum {
  HCCL_DATA_TYPE_INT8 = 0,
  HCCL_DATA_TYPE_INT16 = 1,
  HCCL_DATA_TYPE_INT32 = 2,
  HCCL_DATA_TYPE_FP16 = 3,
  HCCL_DATA_TYPE_FP32 = 4,
  HCCL_DATA_TYPE_INT64 = 5,
  HCCL_DATA_TYPE_UINT64 = 6,
  HCCL_DATA_TYPE_UINT8 = 7,
  HCCL_DATA_TYPE_UINT16 = 8,
  HCCL_DATA_TYPE_UINT32 = 9,
  HCCL_DATA_TYPE_FP64 = 10,
  HCCL_DATA_TYPE_BFP16 = 11,
  HCCL_DATA_TYPE_INT128 = 12,
  HCCL_DATA_TYPE_HIF8 = 14,
  HCCL_DATA_TYPE_FP8E4M3 = 15,
  HCCL_DATA_TYPE_FP8E5M2 = 16,
  HCCL_DATA_TYPE_FP8E8M0 = 17,
  HCCL_DATA_TYPE_RESERVED = 255
} HcclDataType;

/* Process-wide settings (HcclSetConfig / HcclGetConfig). */
typedef enum { HCCL_DETERMINISTIC = 0, HCCL_CONFIG_RESERVED } HcclConfig;

union HcclConfigValue {
  int32_t value;
};

#define HCCL_ROOT_INFO_BYTES 4108u
#define BUFFER_NAME_MAX_LENGTH 128u
#define COMM_NAME_MAX_LENGTH 128u
#define UDI_MAX_LENGTH 128u
#define HCCL_COMM_ALGO_MAX_LENGTH 1600u
#define HCCL_COMM_RETRY_ENABLE_MAX_LENGTH 50u
#define HCCL_COMM_RETRY_PARAMS_MAX_LENGTH 128u

/* What HcclGetRootInfo hands out and every rank passes to HcclCommInitRootInfo. */
typedef struct HcclRootInfoDef {
  char internal[HCCL_ROOT_INFO_BYTES];
} HcclRootInfo;

#define HCCL_COMM_CONFIG_INFO_BYTES 24u
#define HCCL_COMM_CONFIG_MAGIC_WORD 0xf0f0f0f0u
#define HCCL_COMM_CONFIG_VERSION 10u
#define HCCL_COMM_DEFAULT_BUFFSIZE 200u
#define HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET 0xffffffffu
#define HCCL_COMM_DEFAULT_DETERMINISTIC 0u
#define HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET 0xffffffffu
#define HCCL_COMM_DEFAULT_OP_EXPANSION_MODE 0u
#define HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET 0xffffffffu
#define HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET 0xffffffffu
#define HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET ((int32_t)0xffffffff)
#define HCCL_COMM_HCCL_QOS_CONFIG_NOT_SET 0xffffffffu

/* Per-communicator settings. The first HCCL_COMM_CONFIG_INFO_BYTES hold the
 * size, magic word and version HcclCommConfigInit writes: the library reads
 * only the fields a config of that size has. */
typedef struct HcclCommConfigDef {
  char reserved[HCCL_COMM_CONFIG_INFO_BYTES];
  uint32_t hcclBufferSize;    /* MB */
  uint32_t hcclDeterministic; /* 0 off, 1 on */
  char hcclCommName[COMM_NAME_MAX_LENGTH];
  char hcclUdi[UDI_MAX_LENGTH];
  uint32_t hcclOpExpansionMode;
  uint32_t hcclRdmaTrafficClass;
  uint32_t hcclRdmaServiceLevel;
  uint32_t hcclWorldRankID;
  uint64_t hcclJobID;
  uint8_t aclGraphZeroCopyEnable;
  int32_t hcclExecTimeOut; /* seconds */
  char hcclAlgo[HCCL_COMM_ALGO_MAX_LENGTH];
  char hcclRetryEnable[HCCL_COMM_RETRY_ENABLE_MAX_LENGTH];
  char hcclRetryParams[HCCL_COMM_RETRY_PARAMS_MAX_LENGTH];
  char hcclBufferName[BUFFER_NAME_MAX_LENGTH];
  uint32_t hcclQos;
} HcclCommConfig;

/* The config fields a library understands: HcclGetCommConfigCapability
 * returns the first value it does not. */
typedef enum {
  HCCL_COMM_CONFIG_BUFFER_SIZE = 0,
  HCCL_COMM_CONFIG_DETERMINISTIC = 1,
  HCCL_COMM_CONFIG_COMM_NAME = 2,
  HCCL_COMM_CONFIG_OP_EXPANSION_MODE = 3,
  HCCL_COMM_CONFIG_SUPPORT_INIT_BY_ENV = 4,
  HCCL_COMM_CONFIG_WORLD_RANKID = 5,
  HCCL_COMM_CONFIG_JOBID = 6,
  HCCL_COMM_CONFIG_ACLGRAPH_ZEROCOPY_ENABLE = 7,
  HCCL_COMM_CONFIG_EXEC_TIMEOUT = 8,
  HCCL_COMM_CONFIG_ALGO = 9,
  HCCL_COMM_CONFIG_RETRY = 10,
  HCCL_COMM_CONFIG_BUFFER_NAME = 11,
  HCCL_COMM_CONFIG_RESERVED
} HcclCommConfigCapability;

typedef enum { HCCL_SEND = 0, HCCL_RECV = 1, HCCL_SEND_RECV_RESERVED } HcclSendRecvType;

/* One transfer of HcclBatchSendRecv. */
typedef struct HcclSendRecvItemDef {
  HcclSendRecvType sendRecvType;
  void *buf;
  uint64_t count;
  HcclDataType dataType;
  uint32_t remoteRank;
} HcclSendRecvItem;

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_HCCL_HCCL_TYPES_H_ */
