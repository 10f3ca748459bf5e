/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_linspace.h: out = steps values evenly spaced from start to end, both included (torch.linspace).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LINSPACE_H_
#define CANOPY_ACLNNOP_ACLNN_LINSPACE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLinspaceGetWorkspaceSize(const aclScalar *start, const aclScalar *end,
                                                              int64_t steps, aclTensor *out, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLinspace(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LINSPACE_H_ */
