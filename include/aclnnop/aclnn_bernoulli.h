/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_bernoulli.h: aclnnBernoulli, aclnnInplaceBernoulli, aclnnBernoulliTensor and
 * aclnnInplaceBernoulliTensor. Every operator has two phases: aclnnXxxGetWorkspaceSize validates the arguments and
 * builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BERNOULLI_H_
#define CANOPY_ACLNNOP_ACLNN_BERNOULLI_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBernoulliGetWorkspaceSize(const aclTensor *self, const aclScalar *prob,
                                                               int64_t seed, int64_t offset, aclTensor *out,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBernoulli(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBernoulliGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *prob,
                                                                      int64_t seed, int64_t offset,
                                                                      uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBernoulli(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBernoulliTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *prob,
                                                                     int64_t seed, int64_t offset, aclTensor *out,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBernoulliTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBernoulliTensorGetWorkspaceSize(const aclTensor *selfRef,
                                                                            const aclTensor *prob, int64_t seed,
                                                                            int64_t offset, uint64_t *workspaceSize,
                                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBernoulliTensor(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BERNOULLI_H_ */
