/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_weight_quant_matmul_all_reduce.h: aclnnWeightQuantMatmulAllReduce,
 * x1 @ ((x2 + antiquantOffset) * antiquantScale) (+ bias) plus x3 on each rank,
 * x2 INT8 or INT4, summed over the ranks of an HCCL communicator named by
 * `group` (the text HcclGetCommName gives).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_MATMUL_ALL_REDUCE_H_
#define CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_MATMUL_ALL_REDUCE_H_

#include "aclnn/aclnn_base.h"
#include "hccl/hccl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnWeightQuantMatmulAllReduceGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *bias, const aclTensor *antiquantScale,
    const aclTensor *antiquantOffset, const aclTensor *x3, const char *group, const char *reduceOp, int64_t commTurn,
    int64_t streamMode, int64_t antiquantGroupSize, const aclTensor *output, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnWeightQuantMatmulAllReduce(void *workspace, uint64_t workspaceSize,
                                                                aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_MATMUL_ALL_REDUCE_H_ */
