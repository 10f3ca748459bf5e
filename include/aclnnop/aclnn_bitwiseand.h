/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_bitwiseand.h: aclnnBitwiseAndTensorOut and aclnnInplaceBitwiseAndTensorOut.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BITWISEAND_H_
#define CANOPY_ACLNNOP_ACLNN_BITWISEAND_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBitwiseAndTensorOutGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                                         aclTensor *out, uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBitwiseAndTensorOut(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBitwiseAndTensorOutGetWorkspaceSize(const aclTensor *self,
                                                                                const aclTensor *other,
                                                                                uint64_t *workspaceSize,
                                                                                aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBitwiseAndTensorOut(void *workspace, uint64_t workspaceSize,
                                                                aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BITWISEAND_H_ */
