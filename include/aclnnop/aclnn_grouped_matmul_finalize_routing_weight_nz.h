/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz.h: MoE experts' grouped
 * products (A8W8: INT8 x, INT8 weights in FRACTAL_NZ) dequantised per channel and
 * per token, combined by rowIndex into the token rows of out with the shared
 * expert's rows.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_WEIGHT_NZ_H_
#define CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_WEIGHT_NZ_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* With sharedInput and logit: out = 0, rows [sharedInputOffset, + s) = sharedInputWeight *
 * sharedInput, then for expert e's rows r (counts of groupList, groupListType 1):
 * out[rowIndex[r]] += logit[r] * (pertokenScale[r] * scale[e] * (x1[r] @ x2[e]) + bias[e]).
 * Without them (both null) each row replaces out[rowIndex[r]] (no logit); other rows keep
 * their values. x1 INT8 [m, k]; x2 INT8 [e, k, n] (FRACTAL_NZ, or ND as TransMatmulWeight
 * leaves it); scale FLOAT or BFLOAT16 [e, n]; bias BFLOAT16 [e, n] or null; pertokenScale,
 * logit FLOAT [m]; groupList INT64 [e]; sharedInput BFLOAT16 [s, n]; rowIndex INT64 or
 * INT32 [m]; out FLOAT [bs, n]; dtype 0; transposes false. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulFinalizeRoutingWeightNzGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *scale, const aclTensor *bias,
    const aclTensor *pertokenScaleOptional, const aclTensor *groupList, const aclTensor *sharedInput,
    const aclTensor *logit, const aclTensor *rowIndex, int64_t dtype, float sharedInputWeight,
    int64_t sharedInputOffset, bool transposeX1, bool transposeX2, int64_t groupListType, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulFinalizeRoutingWeightNz(void *workspace, uint64_t workspaceSize,
                                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_WEIGHT_NZ_H_ */
