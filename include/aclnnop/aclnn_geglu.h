/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_geglu.h: aclnnGeGlu and aclnnGeGluV3 (GELU-gated linear unit).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GEGLU_H_
#define CANOPY_ACLNNOP_ACLNN_GEGLU_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGluGetWorkspaceSize(const aclTensor *self, int64_t dim, int64_t approximate,
                                                           aclTensor *out, aclTensor *outGelu, uint64_t *workspaceSize,
                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGluV3GetWorkspaceSize(const aclTensor *self, int64_t dim, int64_t approximate,
                                                             bool activateLeft, aclTensor *out, aclTensor *outGelu,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGlu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGluV3(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GEGLU_H_ */
