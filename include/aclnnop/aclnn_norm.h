/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_norm.h: aclnnNorm, the p-norm of a tensor over dims.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = (sum |self|^p)^(1/p) over dim (p = 0: the count of non-zeros; +-inf: max / min |self|). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor *self, const aclScalar *pScalar,
                                                          const aclIntArray *dim, bool keepdim, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NORM_H_ */
