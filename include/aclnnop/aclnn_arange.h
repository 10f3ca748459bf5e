/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_arange.h: out = start, start + step, ... up to (not including) end.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ARANGE_H_
#define CANOPY_ACLNNOP_ACLNN_ARANGE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar *start, const aclScalar *end,
                                                            const aclScalar *step, aclTensor *out,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnArange(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ARANGE_H_ */
