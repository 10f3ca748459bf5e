/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_grouped_matmul_weight_nz.h: aclnnGroupedMatmulV5's grouped products
 * with the weights in FRACTAL_NZ (as TransMatmulWeight prepares them).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_WEIGHT_NZ_H_
#define CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_WEIGHT_NZ_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* As aclnnGroupedMatmulV5, the weight's descriptor FRACTAL_NZ (or ND), its view
 * [k, n] or [g, k, n] with k and n multiples of 16. Atlas A2 dtypes (unquantised):
 * x, weight and out all FLOAT16 or all BFLOAT16. groupType 2 (K split) is not
 * supported. The quantised and activation-fused forms are not implemented on
 * Canopy; tuningConfigOptional and quantGroupSize are not read. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulWeightNzGetWorkspaceSize(
    const aclTensorList *x, const aclTensorList *weight, const aclTensorList *biasOptional,
    const aclTensorList *scaleOptional, const aclTensorList *offsetOptional,
    const aclTensorList *antiquantScaleOptional, const aclTensorList *antiquantOffsetOptional,
    const aclTensorList *perTokenScaleOptional, const aclTensor *groupListOptional,
    const aclTensorList *activationInputOptional, const aclTensorList *activationQuantScaleOptional,
    const aclTensorList *activationQuantOffsetOptional, int64_t splitItem, int64_t groupType, int64_t groupListType,
    int64_t actType, aclIntArray *tuningConfigOptional, int64_t quantGroupSize, aclTensorList *out,
    aclTensorList *activationFeatureOutOptional, aclTensorList *dynQuantScaleOutOptional, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulWeightNz(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_WEIGHT_NZ_H_ */
