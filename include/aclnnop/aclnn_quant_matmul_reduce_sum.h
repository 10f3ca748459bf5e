/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_quant_matmul_reduce_sum.h: aclnnQuantMatmulReduceSumWeightNz,
 * out = sum over the batch of (x1[b] @ x2[b]) * x1Scale[b] * x2Scale, with INT8
 * x1 [b, m, k], an INT8 FRACTAL_NZ weight x2 [b, k, n], per-token x1Scale
 * (FLOAT32 [b, m]) and per-channel x2Scale (BFLOAT16 [n]); out BFLOAT16 [m, n].
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_REDUCE_SUM_H_
#define CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_REDUCE_SUM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* yScale, x1Offset, x2Offset, yOffset and bias are reserved (null or empty);
 * transposeX1, transposeX2 and keepDims false, groupSize 0, dims [0]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulReduceSumWeightNzGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *x1Scale, const aclTensor *x2Scale,
    const aclTensor *yScale, const aclTensor *x1Offset, const aclTensor *x2Offset, const aclTensor *yOffset,
    const aclTensor *bias, bool transposeX1, bool transposeX2, int64_t groupSize, const aclIntArray *dims,
    bool keepDims, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulReduceSumWeightNz(void *workspace, uint64_t workspaceSize,
                                                                  aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_REDUCE_SUM_H_ */
