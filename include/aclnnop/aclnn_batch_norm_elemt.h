/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_batch_norm_elemt.h: aclnnBatchNormElemt.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BATCH_NORM_ELEMT_H_
#define CANOPY_ACLNNOP_ACLNN_BATCH_NORM_ELEMT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormElemtGetWorkspaceSize(const aclTensor *input, const aclTensor *weight,
                                                                    const aclTensor *bias, aclTensor *mean,
                                                                    aclTensor *invstd, double eps, aclTensor *output,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormElemt(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BATCH_NORM_ELEMT_H_ */
