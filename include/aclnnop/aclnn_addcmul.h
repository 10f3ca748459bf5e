/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_addcmul.h: aclnnAddcmul and aclnnInplaceAddcmul.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADDCMUL_H_
#define CANOPY_ACLNNOP_ACLNN_ADDCMUL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddcmulGetWorkspaceSize(const aclTensor *self, const aclTensor *tensor1,
                                                             const aclTensor *tensor2, const aclScalar *value,
                                                             aclTensor *out, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddcmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddcmulGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *tensor1,
                                                                    const aclTensor *tensor2, const aclScalar *value,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddcmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADDCMUL_H_ */
