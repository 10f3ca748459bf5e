/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_multinomial.h: aclnnMultinomial and aclnnMultinomialTensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MULTINOMIAL_H_
#define CANOPY_ACLNNOP_ACLNN_MULTINOMIAL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMultinomialGetWorkspaceSize(const aclTensor *self, int64_t numsamples,
                                                                 bool replacement, int64_t seed, int64_t offset,
                                                                 aclTensor *out, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMultinomial(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMultinomialTensorGetWorkspaceSize(const aclTensor *self, int64_t numsamples,
                                                                       bool replacement, const aclTensor *seedTensor,
                                                                       const aclTensor *offsetTensor, int64_t offset,
                                                                       aclTensor *out, uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMultinomialTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MULTINOMIAL_H_ */
