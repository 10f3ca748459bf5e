/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_deep_norm.h: aclnnDeepNorm, layer normalisation of alpha * x + gx.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DEEP_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_DEEP_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x' = alpha * x + gx, yOut = (x' - mean) * rstd * gamma + beta over the trailing dims gamma spans, rstd =
 * 1 / sqrt(var(x') + epsilon); meanOut and rstdOut (FLOAT) per row. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnDeepNormGetWorkspaceSize(const aclTensor *x, const aclTensor *gx,
                                                              const aclTensor *beta, const aclTensor *gamma,
                                                              double alpha, double epsilon, const aclTensor *meanOut,
                                                              const aclTensor *rstdOut, const aclTensor *yOut,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDeepNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DEEP_NORM_H_ */
