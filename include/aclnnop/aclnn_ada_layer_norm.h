/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_ada_layer_norm.h: aclnnAdaLayerNorm.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADA_LAYER_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_ADA_LAYER_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAdaLayerNormGetWorkspaceSize(
    const aclTensor *x, const aclTensor *scale, const aclTensor *shift, const aclTensor *weightOptional,
    const aclTensor *biasOptional, double epsilon, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAdaLayerNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADA_LAYER_NORM_H_ */
