/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_normal_out.h: aclnnNormalTensorTensor, aclnnNormalTensorFloat,
 * aclnnNormalFloatTensor and aclnnNormalFloatFloat (torch.normal's out forms).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NORMAL_OUT_H_
#define CANOPY_ACLNNOP_ACLNN_NORMAL_OUT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNormalTensorTensorGetWorkspaceSize(const aclTensor *mean, const aclTensor *std,
                                                                        int64_t seed, int64_t offset, aclTensor *out,
                                                                        uint64_t *workspaceSize,
                                                                        aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNormalTensorTensor(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNormalTensorFloatGetWorkspaceSize(const aclTensor *mean, float std, int64_t seed,
                                                                       int64_t offset, aclTensor *out,
                                                                       uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNormalTensorFloat(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNormalFloatTensorGetWorkspaceSize(float mean, const aclTensor *std, int64_t seed,
                                                                       int64_t offset, aclTensor *out,
                                                                       uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNormalFloatTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNormalFloatFloatGetWorkspaceSize(float mean, float std, int64_t seed,
                                                                      int64_t offset, aclTensor *out,
                                                                      uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNormalFloatFloat(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NORMAL_OUT_H_ */
