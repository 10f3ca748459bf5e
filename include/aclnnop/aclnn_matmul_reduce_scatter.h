/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_matmul_reduce_scatter.h: aclnnMatmulReduceScatter, the
 * product x1 @ x2 (+ bias) summed over the ranks of an HCCL communicator
 * (named by `group`, the text HcclGetCommName gives), each rank receiving its
 * block of rows.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MATMUL_REDUCE_SCATTER_H_
#define CANOPY_ACLNNOP_ACLNN_MATMUL_REDUCE_SCATTER_H_

#include "aclnn/aclnn_base.h"
#include "hccl/hccl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMatmulReduceScatterGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *bias, const char *group, const char *reduceOp,
    int64_t commTurn, int64_t streamMode, const aclTensor *output, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMatmulReduceScatter(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MATMUL_REDUCE_SCATTER_H_ */
