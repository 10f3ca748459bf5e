/* Canopy's bridge from fused ops to HCCL (libhccl): aclnn's mc2 family
 * (MatmulAllReduce, AllGatherMatmul, MatmulReduceScatter, ...) names its
 * communicator by group name, the text HcclGetCommName gives, and runs its
 * collective inside the op's own task on the device engine, as the NPU runs
 * it inside the fused kernel. */
#ifndef CANOPY_CANOPY_HCCL_H_
#define CANOPY_CANOPY_HCCL_H_

#include <stdint.h>

#include "acl/acl_base.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The communicator `group` names on the calling thread's device (the engine's
 * device on a device engine, else aclrtGetDevice's): the ranks of one
 * communicator in one process share its name and differ in their device.
 * HCCL_E_PARA with the recent error message naming the group when no live
 * communicator matches. */
ACL_FUNC_VISIBILITY HcclResult canopyHcclGroupInfo(const char *group, uint32_t *rank, uint32_t *rankSize);

/* Collectives run to completion on the calling thread, on the communicator
 * `group` names as above, which must still have `rankSize` ranks (what the op
 * planned for). Arguments as HcclAllReduce, HcclAllGather, HcclReduceScatter
 * and HcclAlltoAllV take them, without a stream. A failure sets the recent
 * error message and the communicator's asynchronous error, as a failed
 * operation queued on a stream does. */
ACL_FUNC_VISIBILITY HcclResult canopyHcclRunAllReduce(const char *group, uint32_t rankSize, const void *sendBuf,
                                                      void *recvBuf, uint64_t count, HcclDataType dataType,
                                                      HcclReduceOp op);
ACL_FUNC_VISIBILITY HcclResult canopyHcclRunAllGather(const char *group, uint32_t rankSize, const void *sendBuf,
                                                      void *recvBuf, uint64_t sendCount, HcclDataType dataType);
ACL_FUNC_VISIBILITY HcclResult canopyHcclRunReduceScatter(const char *group, uint32_t rankSize, const void *sendBuf,
                                                          void *recvBuf, uint64_t recvCount, HcclDataType dataType,
                                                          HcclReduceOp op);
ACL_FUNC_VISIBILITY HcclResult canopyHcclRunAlltoAllV(const char *group, uint32_t rankSize, const void *sendBuf,
                                                      const uint64_t *sendCounts, const uint64_t *sdispls,
                                                      void *recvBuf, const uint64_t *recvCounts,
                                                      const uint64_t *rdispls, HcclDataType dataType);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_CANOPY_HCCL_H_ */
