/*
 * Canopy - CPU implementation of the Ascend CANN runtime API.
 *
 * hccl/hccl_comm.h: making, querying and destroying HCCL communicators.
 */
#ifndef CANOPY_HCCL_HCCL_COMM_H_
#define CANOPY_HCCL_HCCL_COMM_H_

#include <string.h>

#include "acl/acl_base.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills `rootInfo` with what every rank of a new communicator needs to find
 * the others: the address of a rendezvous listener this process opens and a
 * random secret that every connection of the communicator must prove. */
ACL_FUNC_VISIBILITY HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo);

/* Joins the communicator of `nRanks` ranks described by `rootInfo` as `rank`
 * (each rank calls it once, with its device set). */
ACL_FUNC_VISIBILITY HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
                                                    HcclComm *comm);
ACL_FUNC_VISIBILITY HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
                                                          const HcclCommConfig *config, HcclComm *comm);

/* Joins the communicator the rank-table file at `clusterInfo` describes (CANN's
 * JSON layout) as `rank`, which must be one of its rank_id values. Canopy
 * needs the communicator secret beside the table: see docs/hccl.md. */
ACL_FUNC_VISIBILITY HcclResult HcclCommInitClusterInfo(const char *clusterInfo, uint32_t rank, HcclComm *comm);
ACL_FUNC_VISIBILITY HcclResult HcclCommInitClusterInfoConfig(const char *clusterInfo, uint32_t rank,
                                                             HcclCommConfig *config, HcclComm *comm);

/* One communicator over `ndev` devices of this process: comms[i] is the rank
 * of devices[i]. */
ACL_FUNC_VISIBILITY HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms);

ACL_FUNC_VISIBILITY HcclResult HcclCommDestroy(HcclComm comm);

ACL_FUNC_VISIBILITY HcclResult HcclGetRankSize(HcclComm comm, uint32_t *rankSize);
ACL_FUNC_VISIBILITY HcclResult HcclGetRankId(HcclComm comm, uint32_t *rank);
/* Copies the communicator's name (at most COMM_NAME_MAX_LENGTH bytes with its NUL). */
ACL_FUNC_VISIBILITY HcclResult HcclGetCommName(HcclComm comm, char *commName);
/* The first failure of the communicator's asynchronous work (HCCL_SUCCESS if none). */
ACL_FUNC_VISIBILITY HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult *asyncError);

ACL_FUNC_VISIBILITY const char *HcclGetErrorString(HcclResult code);

ACL_FUNC_VISIBILITY HcclResult HcclSetConfig(HcclConfig config, union HcclConfigValue configValue);
ACL_FUNC_VISIBILITY HcclResult HcclGetConfig(HcclConfig config, union HcclConfigValue *configValue);

/* The first HcclCommConfigCapability value this library does not understand. */
ACL_FUNC_VISIBILITY uint32_t HcclGetCommConfigCapability(void);

/* Sets `config` to "nothing chosen": every field at its not-set value, with
 * the size, magic word and version the library reads first. */
static inline void HcclCommConfigInit(HcclCommConfig *config) {
  typedef struct {
    size_t size;
    uint32_t magicWord;
    uint32_t version;
    uint64_t reserved;
  } HcclCommConfigHeader;
  HcclCommConfigHeader header;
  if (config == NULL) return;
  memset(config, 0, sizeof(*config));
  header.size = sizeof(HcclCommConfig);
  header.magicWord = HCCL_COMM_CONFIG_MAGIC_WORD;
  header.version = HCCL_COMM_CONFIG_VERSION;
  header.reserved = 0;
  memcpy(config->reserved, &header, sizeof(header));
  config->hcclBufferSize = HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET;
  config->hcclDeterministic = HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET;
  config->hcclOpExpansionMode = HCCL_COMM_DEFAULT_OP_EXPANSION_MODE;
  config->hcclRdmaTrafficClass = HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET;
  config->hcclRdmaServiceLevel = HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET;
  config->hcclExecTimeOut = HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET;
  config->hcclQos = HCCL_COMM_HCCL_QOS_CONFIG_NOT_SET;
}

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_HCCL_HCCL_COMM_H_ */
