/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_quant_matmul_all_reduce_v3.h: aclnnQuantMatmulAllReduceV3, aclnnQuantMatmulAllReduceV2
 * with optional INT8 communication: each rank's part quantised by
 * commQuantScale1 before the sum, the sum requantised by commQuantScale2.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_ALL_REDUCE_V3_H_
#define CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_ALL_REDUCE_V3_H_

#include "aclnn/aclnn_base.h"
#include "hccl/hccl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulAllReduceV3GetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *biasOptional, const aclTensor *x3Optional,
    const aclTensor *dequantScale, const aclTensor *pertokenScaleOptional, const aclTensor *commQuantScale1Optional,
    const aclTensor *commQuantScale2Optional, const char *group, const char *reduceOp, int64_t commTurn,
    int64_t streamMode, const aclTensor *output, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulAllReduceV3(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_ALL_REDUCE_V3_H_ */
