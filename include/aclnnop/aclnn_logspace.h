/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_logspace.h: steps values base^x, x evenly spaced from start to end (both included).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LOGSPACE_H_
#define CANOPY_ACLNNOP_ACLNN_LOGSPACE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* result: FLOAT, FLOAT16 or BFLOAT16 holding steps elements (steps >= 0). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSpaceGetWorkspaceSize(const aclScalar *start, const aclScalar *end,
                                                              int64_t steps, double base, const aclTensor *result,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSpace(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LOGSPACE_H_ */
