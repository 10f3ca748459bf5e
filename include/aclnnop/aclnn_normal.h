/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_normal.h: aclnnInplaceNormal and aclnnInplaceNormalTensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NORMAL_H_
#define CANOPY_ACLNNOP_ACLNN_NORMAL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceNormalGetWorkspaceSize(const aclTensor *selfRef, float mean, float std,
                                                                   int64_t seed, int64_t offset,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceNormal(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceNormalTensorGetWorkspaceSize(const aclTensor *selfRef, float mean,
                                                                         float std, const aclTensor *seedTensor,
                                                                         const aclTensor *offsetTensor, int64_t offset,
                                                                         uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceNormalTensor(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NORMAL_H_ */
