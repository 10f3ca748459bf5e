/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_uniform.h: aclnnInplaceUniform and aclnnInplaceUniformTensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_UNIFORM_H_
#define CANOPY_ACLNNOP_ACLNN_UNIFORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceUniformGetWorkspaceSize(const aclTensor *selfRef, double from, double to,
                                                                    uint64_t seed, uint64_t offset,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceUniform(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceUniformTensorGetWorkspaceSize(const aclTensor *selfRef, double from,
                                                                          double to, const aclTensor *seedTensor,
                                                                          const aclTensor *offsetTensor,
                                                                          uint64_t offset, uint64_t *workspaceSize,
                                                                          aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceUniformTensor(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_UNIFORM_H_ */
