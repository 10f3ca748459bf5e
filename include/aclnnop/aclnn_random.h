/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_random.h: aclnnInplaceRandom and aclnnInplaceRandomTensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_RANDOM_H_
#define CANOPY_ACLNNOP_ACLNN_RANDOM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRandomGetWorkspaceSize(const aclTensor *selfRef, int64_t from, int64_t to,
                                                                   int64_t seed, int64_t offset,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRandom(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRandomTensorGetWorkspaceSize(const aclTensor *selfRef, int64_t from,
                                                                         int64_t to, const aclTensor *seedTensor,
                                                                         const aclTensor *offsetTensor, int64_t offset,
                                                                         uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRandomTensor(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_RANDOM_H_ */
