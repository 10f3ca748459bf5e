/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_add_layer_norm.h: aclnnAddLayerNorm, layer normalisation of x1 + x2 (+ bias).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADD_LAYER_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_ADD_LAYER_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x = x1 + x2 + biasOptional (into xOut when additionalOutput), yOut = (x - mean) * rstd * gamma + beta over the
 * trailing dims gamma spans, rstd = 1 / sqrt(var(x) + epsilon); meanOut and rstdOut (FLOAT) per row. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddLayerNormGetWorkspaceSize(const aclTensor *x1, const aclTensor *x2,
                                                                  const aclTensor *gamma, const aclTensor *beta,
                                                                  const aclTensor *biasOptional, double epsilon,
                                                                  bool additionalOutput, const aclTensor *yOut,
                                                                  const aclTensor *meanOut, const aclTensor *rstdOut,
                                                                  const aclTensor *xOut, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddLayerNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADD_LAYER_NORM_H_ */
