/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_dropout_gen_mask.h: aclnnDropoutGenMask, aclnnDropoutGenMaskV2 and aclnnDropoutGenMaskV2Tensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DROPOUT_GEN_MASK_H_
#define CANOPY_ACLNNOP_ACLNN_DROPOUT_GEN_MASK_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutGenMaskGetWorkspaceSize(const aclIntArray *shape, double prob, int64_t seed,
                                                                    int64_t offset, aclTensor *out,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutGenMask(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutGenMaskV2GetWorkspaceSize(const aclIntArray *shape, double prob,
                                                                      int64_t seed, int64_t offset,
                                                                      aclDataType probDataType, aclTensor *out,
                                                                      uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutGenMaskV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutGenMaskV2TensorGetWorkspaceSize(
    const aclIntArray *shape, double prob, const aclTensor *seedTensor, const aclTensor *offsetTensor, int64_t offset,
    aclDataType probDataType, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDropoutGenMaskV2Tensor(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DROPOUT_GEN_MASK_H_ */
