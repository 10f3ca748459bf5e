/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_grouped_matmul_finalize_routing.h: MoE experts' grouped products
 * (A8W4: INT8 x, int4 weights packed in INT32) dequantised per channel and per
 * token, scatter-added by rowIndex into the token rows of y with the shared
 * expert's rows.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_H_
#define CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* y = 0, rows [sharedInputOffset, + s) = sharedInputWeight * sharedInputOptional; then
 * for expert e's rows r (counts of groupListOptional, groupListType 1):
 * y[rowIndex[r]] += pertokenScale[r] * logit[r] * (scale[e] * (x[r] @ w[e]) + bias[e] - 8 * scale[e] * sum_k w[e]).
 * x INT8 [m, k]; w INT32 [e, k, n / 8] (ND or FRACTAL_NZ); scale INT64 [e, 1, n] (f32 in the
 * low 32 bits); bias, pertokenScale, logit FLOAT; groupList, rowIndex INT64; sharedInput
 * BF16 [s, n]; y FLOAT [bs, n]; every tensor required; dtype 0; transposes false. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulFinalizeRoutingGetWorkspaceSize(
    const aclTensor *x, aclTensor *w, const aclTensor *scaleOptional, const aclTensor *biasOptional,
    const aclTensor *pertokenScaleOptional, const aclTensor *groupListOptional, const aclTensor *sharedInputOptional,
    const aclTensor *logitOptional, const aclTensor *rowIndexOptional, int64_t dtype, float sharedInputWeight,
    int64_t sharedInputOffset, bool transposeX, bool transposeW, int64_t groupListType, aclTensor *y,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulFinalizeRouting(void *workspace, uint64_t workspaceSize,
                                                                  aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_H_ */
