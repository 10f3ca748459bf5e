/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_addcdiv.h: out = self + value * tensor1 / tensor2
 * (broadcast), and the in-place form.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADDCDIV_H_
#define CANOPY_ACLNNOP_ACLNN_ADDCDIV_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Note: CANN declares out as a pointer to const here. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddcdivGetWorkspaceSize(const aclTensor *self, const aclTensor *tensor1,
                                                             const aclTensor *tensor2, const aclScalar *value,
                                                             const aclTensor *out, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddcdiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddcdivGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *tensor1,
                                                                    const aclTensor *tensor2, const aclScalar *value,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddcdiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADDCDIV_H_ */
