/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_leaky_relu.h: aclnnLeakyRelu and aclnnInplaceLeakyRelu.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LEAKY_RELU_H_
#define CANOPY_ACLNNOP_ACLNN_LEAKY_RELU_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor *self, const aclScalar *negativeSlope,
                                                               aclTensor *out, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLeakyRelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor *selfRef,
                                                                      const aclScalar *negativeSlope,
                                                                      uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLeakyRelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LEAKY_RELU_H_ */
