/*
 * Canopy - CPU implementation of the Ascend CANN runtime API.
 *
 * hccl/hccl.h: CANN's collective and point-to-point communication operations
 * (libhccl.so). Each operation is queued on `stream` and runs in stream order:
 * it starts once the work queued before it has finished, later work waits for
 * it, and the call returns at once. Buffers are device memory (aclrtMalloc).
 */
#ifndef CANOPY_HCCL_HCCL_H_
#define CANOPY_HCCL_HCCL_H_

#include "acl/acl.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
                                             HcclReduceOp op, HcclComm comm, aclrtStream stream);

ACL_FUNC_VISIBILITY HcclResult HcclBroadcast(void *buf, uint64_t count, HcclDataType dataType, uint32_t root,
                                             HcclComm comm, aclrtStream stream);

/* recvBuf receives recvCount elements: this rank's block of the reduction of
 * every rank's sendBuf (rankSize * recvCount elements). */
ACL_FUNC_VISIBILITY HcclResult HcclReduceScatter(void *sendBuf, void *recvBuf, uint64_t recvCount,
                                                 HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                                 aclrtStream stream);

/* Rank i's block is sendCounts[i] elements at sendDispls[i] of sendBuf;
 * recvBuf receives this rank's block of the reduction over every rank
 * (recvCount = sendCounts[rank]). The arrays (uint64_t, rankSize entries)
 * are the same on every rank; sendBuf and recvBuf differ. */
ACL_FUNC_VISIBILITY HcclResult HcclReduceScatterV(void *sendBuf, const void *sendCounts, const void *sendDispls,
                                                  void *recvBuf, uint64_t recvCount, HcclDataType dataType,
                                                  HcclReduceOp op, HcclComm comm, aclrtStream stream);

ACL_FUNC_VISIBILITY HcclResult HcclScatter(void *sendBuf, void *recvBuf, uint64_t recvCount, HcclDataType dataType,
                                           uint32_t root, HcclComm comm, aclrtStream stream);

ACL_FUNC_VISIBILITY HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount, HcclDataType dataType,
                                             HcclComm comm, aclrtStream stream);

/* Rank i's sendCount elements land at recvDispls[i] of every rank's recvBuf
 * (recvCounts[i] = rank i's sendCount). The arrays (uint64_t, rankSize
 * entries) are the same on every rank; sendBuf and recvBuf differ. */
ACL_FUNC_VISIBILITY HcclResult HcclAllGatherV(void *sendBuf, uint64_t sendCount, void *recvBuf, const void *recvCounts,
                                              const void *recvDispls, HcclDataType dataType, HcclComm comm,
                                              aclrtStream stream);

ACL_FUNC_VISIBILITY HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank,
                                        HcclComm comm, aclrtStream stream);

ACL_FUNC_VISIBILITY HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
                                        HcclComm comm, aclrtStream stream);

/* Counts and displacements are uint64_t arrays of rankSize entries, in elements. */
ACL_FUNC_VISIBILITY HcclResult HcclAlltoAllV(const void *sendBuf, const void *sendCounts, const void *sdispls,
                                             HcclDataType sendType, const void *recvBuf, const void *recvCounts,
                                             const void *rdispls, HcclDataType recvType, HcclComm comm,
                                             aclrtStream stream);

ACL_FUNC_VISIBILITY HcclResult HcclAlltoAll(const void *sendBuf, uint64_t sendCount, HcclDataType sendType,
                                            const void *recvBuf, uint64_t recvCount, HcclDataType recvType,
                                            HcclComm comm, aclrtStream stream);

ACL_FUNC_VISIBILITY HcclResult HcclReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
                                          HcclReduceOp op, uint32_t root, HcclComm comm, aclrtStream stream);

ACL_FUNC_VISIBILITY HcclResult HcclBatchSendRecv(HcclSendRecvItem *sendRecvInfo, uint32_t itemNum, HcclComm comm,
                                                 aclrtStream stream);

ACL_FUNC_VISIBILITY HcclResult HcclBarrier(HcclComm comm, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_HCCL_HCCL_H_ */
