/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_hardsigmoid.h: aclnnHardsigmoid and aclnnInplaceHardsigmoid.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_HARDSIGMOID_H_
#define CANOPY_ACLNNOP_ACLNN_HARDSIGMOID_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnHardsigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 const aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(const aclTensor *self, uint64_t *workspaceSize,
                                                                        aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceHardsigmoid(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_HARDSIGMOID_H_ */
