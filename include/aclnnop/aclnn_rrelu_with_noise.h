/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_rrelu_with_noise.h: randomized leaky ReLU: in training, negative elements scaled by a slope
 * drawn from U(lower, upper) (stored in noise, 1 elsewhere); in evaluation, by (lower + upper) / 2.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_RRELU_WITH_NOISE_H_
#define CANOPY_ACLNNOP_ACLNN_RRELU_WITH_NOISE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRReluWithNoiseGetWorkspaceSize(const aclTensor *self, const aclTensor *noise,
                                                                    const aclScalar *lower, const aclScalar *upper,
                                                                    bool training, int64_t seed, int64_t offset,
                                                                    aclTensor *out, uint64_t *workspaceSize,
                                                                    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRReluWithNoise(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRReluWithNoiseGetWorkspaceSize(
    const aclTensor *self, const aclTensor *noise, const aclScalar *lower, const aclScalar *upper, bool training,
    int64_t seed, int64_t offset, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRReluWithNoise(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_RRELU_WITH_NOISE_H_ */
