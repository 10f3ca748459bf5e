/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_layer_norm_quant.h: aclnnLayerNormQuant.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LAYER_NORM_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_LAYER_NORM_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormQuantGetWorkspaceSize(const aclTensor *x, const aclTensor *gamma,
                                                                    const aclTensor *beta, const aclTensor *scale,
                                                                    const aclTensor *zeroPointsOptional, int quantMode,
                                                                    double epsilon, aclTensor *res, aclTensor *scaleOut,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LAYER_NORM_QUANT_H_ */
