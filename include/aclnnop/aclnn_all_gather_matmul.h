/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_all_gather_matmul.h: aclnnAllGatherMatmul, the rows of x1 of
 * every rank of an HCCL communicator (named by `group`, the text
 * HcclGetCommName gives) gathered into gatherOut and multiplied by x2.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ALL_GATHER_MATMUL_H_
#define CANOPY_ACLNNOP_ACLNN_ALL_GATHER_MATMUL_H_

#include "aclnn/aclnn_base.h"
#include "hccl/hccl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAllGatherMatmulGetWorkspaceSize(const aclTensor *x1, const aclTensor *x2,
                                                                     const aclTensor *bias, const char *group,
                                                                     int64_t gatherIndex, int64_t commTurn,
                                                                     int64_t streamMode, const aclTensor *output,
                                                                     const aclTensor *gatherOut,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAllGatherMatmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ALL_GATHER_MATMUL_H_ */
