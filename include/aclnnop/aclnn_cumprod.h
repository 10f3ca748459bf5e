/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_cumprod.h: aclnnCumprod and aclnnInplaceCumprod, the running product along one dimension.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CUMPROD_H_
#define CANOPY_ACLNNOP_ACLNN_CUMPROD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = the running product of input along dim (an INT32 or INT64 scalar), computed in dtype (ACL_DT_UNDEFINED:
 * out's dtype, which dtype must otherwise equal), input converted to it first. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnCumprodGetWorkspaceSize(const aclTensor *input, const aclScalar *dim,
                                                             const aclDataType dtype, aclTensor *out,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCumprod(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

/* input = its own running product along dim. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceCumprodGetWorkspaceSize(aclTensor *input, const aclScalar *dim,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceCumprod(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CUMPROD_H_ */
