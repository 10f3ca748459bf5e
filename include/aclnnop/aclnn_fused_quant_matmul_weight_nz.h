/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_fused_quant_matmul_weight_nz.h: aclnnFusedQuantMatmulWeightNz, a quantised product
 * (INT8 x1 per-token scaled by x1Scale, INT8 x2 per-channel or per-tensor by
 * x2Scale, plus bias) followed by GELU: out = fusedOpType(qbmmout), fusedOpType
 * "gelu_erf" or "gelu_tanh".
 * x2 is a FRACTAL_NZ weight (aclnnTransMatmulWeight).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FUSED_QUANT_MATMUL_WEIGHT_NZ_H_
#define CANOPY_ACLNNOP_ACLNN_FUSED_QUANT_MATMUL_WEIGHT_NZ_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* yScaleOptional, x1OffsetOptional, x2OffsetOptional, yOffsetOptional and
 * x3Optional are reserved (null or empty); groupSizeOptional must be 0. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedQuantMatmulWeightNzGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *x1Scale, const aclTensor *x2Scale,
    const aclTensor *yScaleOptional, const aclTensor *x1OffsetOptional, const aclTensor *x2OffsetOptional,
    const aclTensor *yOffsetOptional, const aclTensor *biasOptional, const aclTensor *x3Optional,
    const char *fusedOpType, int64_t groupSizeOptional, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedQuantMatmulWeightNz(void *workspace, uint64_t workspaceSize,
                                                              aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FUSED_QUANT_MATMUL_WEIGHT_NZ_H_ */
