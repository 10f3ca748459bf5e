/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_rsub.h: aclnnRsub and aclnnRsubs.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_RSUB_H_
#define CANOPY_ACLNNOP_ACLNN_RSUB_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRsubGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                          const aclScalar *alpha, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRsub(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRsubsGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
                                                           const aclScalar *alpha, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRsubs(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_RSUB_H_ */
