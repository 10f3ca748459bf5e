/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_segsum.h: aclnnExpSegsum, Mamba2's exponentiated segment sum: self [..., T]
 * (3 or 4 dims) gives out [..., T, T], out[i, j] = exp(self[j + 1] + ... + self[i]) on and below
 * the diagonal and 0 above it. Atlas A2: FLOAT, FLOAT16, BFLOAT16, out of self's dtype.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SEGSUM_H_
#define CANOPY_ACLNNOP_ACLNN_SEGSUM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnExpSegsumGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnExpSegsum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SEGSUM_H_ */
