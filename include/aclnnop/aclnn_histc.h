/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_histc.h: a histogram of self's values in bins equal-width bins between min and max.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_HISTC_H_
#define CANOPY_ACLNNOP_ACLNN_HISTC_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out: rank 1 with bins elements, a dtype that casts to self's; min == max takes the data's own range. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnHistcGetWorkspaceSize(const aclTensor *self, int64_t bins, const aclScalar *min,
                                                           const aclScalar *max, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnHistc(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_HISTC_H_ */
