/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_max.h: aclnnMax, the largest element of a tensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MAX_H_
#define CANOPY_ACLNNOP_ACLNN_MAX_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out (one element) = the largest element of self (NaN propagates), converted to out's dtype. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MAX_H_ */
