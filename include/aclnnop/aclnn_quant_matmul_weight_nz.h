/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_quant_matmul_weight_nz.h: aclnnQuantMatmulWeightNz (QuantMatmulV5 with
 * x2 a weight in FRACTAL_NZ, as TransMatmulWeight prepares it).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_WEIGHT_NZ_H_
#define CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_WEIGHT_NZ_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Canopy computes the INT8 x INT8 modes: x1Scale per token (FLOAT, [m]) or null, x2Scale per channel or
 * per tensor; yScale, x1Offset and yOffset null or empty. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulWeightNzGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *x1Scale, const aclTensor *x2Scale,
    const aclTensor *yScale, const aclTensor *x1Offset, const aclTensor *x2Offset, const aclTensor *yOffset,
    const aclTensor *bias, bool transposeX1, bool transposeX2, int64_t groupSize, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulWeightNz(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_WEIGHT_NZ_H_ */
