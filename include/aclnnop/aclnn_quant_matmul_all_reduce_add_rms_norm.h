/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_quant_matmul_all_reduce_add_rms_norm.h: aclnnQuantMatmulAllReduceAddRmsNorm,
 * the INT8 product x1 @ x2 (+ INT32
 * bias) dequantised by dequantScale, summed over the ranks of an HCCL
 * communicator named by `group`, added to residual (y) and RMS-normalised
 * times gamma (normOut).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_ALL_REDUCE_ADD_RMS_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_ALL_REDUCE_ADD_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "hccl/hccl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *bias, const aclTensor *dequantScale,
    const aclTensor *residual, const aclTensor *gamma, double epsilon, const char *group, const char *reduceOp,
    int64_t commTurn, int64_t streamMode, const aclTensor *y, const aclTensor *normOut, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulAllReduceAddRmsNorm(void *workspace, uint64_t workspaceSize,
                                                                    aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_ALL_REDUCE_ADD_RMS_NORM_H_ */
