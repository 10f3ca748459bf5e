/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_clipped_swiglu.h: SwiGLU with its halves clipped to limit: A * sigmoid(alpha * A) * (B + bias),
 * A = min(a, limit), B = clamp(b, -limit, limit), the halves interleaved or split along dim; with
 * groupIndexOptional only the first sum(groupIndex) rows.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CLIPPED_SWIGLU_H_
#define CANOPY_ACLNNOP_ACLNN_CLIPPED_SWIGLU_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnClippedSwigluGetWorkspaceSize(const aclTensor *x,
                                                                   const aclTensor *groupIndexOptional, int64_t dim,
                                                                   double alpha, double limit, double bias,
                                                                   bool interleaved, const aclTensor *out,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnClippedSwiglu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CLIPPED_SWIGLU_H_ */
