/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_ge_scalar.h: aclnnGeScalar and aclnnInplaceGeScalar.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GE_SCALAR_H_
#define CANOPY_ACLNNOP_ACLNN_GE_SCALAR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
                                                              aclTensor *out, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGeScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceGeScalarGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceGeScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GE_SCALAR_H_ */
