/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_masked_fill_scalar.h: aclnnInplaceMaskedFillScalar, selfRef
 * takes `value` where the (broadcast) bool mask is true.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H_
#define CANOPY_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
                                                                             const aclScalar *value,
                                                                             uint64_t *workspaceSize,
                                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMaskedFillScalar(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H_ */
