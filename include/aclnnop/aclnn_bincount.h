/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_bincount.h: how often each non-negative integer occurs in self (weighted by weights when given).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BINCOUNT_H_
#define CANOPY_ACLNNOP_ACLNN_BINCOUNT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self and weights (optional, null: every weight 1) are 1-D of one shape; out is [n], n >= minlength, values from n on
 * are not counted. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnBincountGetWorkspaceSize(const aclTensor *self, const aclTensor *weights,
                                                              int64_t minlength, aclTensor *out,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBincount(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BINCOUNT_H_ */
