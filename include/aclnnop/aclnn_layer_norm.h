/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_layer_norm.h: aclnnLayerNorm (and its implMode and fast forms), layer normalisation.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LAYER_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_LAYER_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = (input - mean) * rstd * weight + bias over the trailing dims normalizedShape names; mean and
 * rstd per row into the optional outputs. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormGetWorkspaceSize(
    const aclTensor *input, const aclIntArray *normalizedShape, const aclTensor *weightOptional,
    const aclTensor *biasOptional, double eps, aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

/* The same with implMode: 0 high precision, 1 high performance, 2 keep float16 (all inputs f16). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(
    const aclTensor *input, const aclIntArray *normalizedShape, const aclTensor *weightOptional,
    const aclTensor *biasOptional, double eps, aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional,
    int32_t implMode, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormWithImplMode(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);

/* The same computation as aclnnLayerNorm. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnFastLayerNormGetWorkspaceSize(
    const aclTensor *input, const aclIntArray *normalizedShape, const aclTensor *weightOptional,
    const aclTensor *biasOptional, double eps, aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFastLayerNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LAYER_NORM_H_ */
