/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_all.h: aclnnAll, whether every element over a list of dimensions is non-zero.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ALL_H_
#define CANOPY_ACLNNOP_ACLNN_ALL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out (BOOL or UINT8) = 1 where every element of self over dim is non-zero (NaN counts), else 0;
 * negative dims count from the end, an empty list is every dimension; keepdim keeps the reduced
 * dimensions with extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepdim,
                                                         aclTensor *out, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAll(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ALL_H_ */
