/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_batch_norm_reduce.h: aclnnBatchNormReduce.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BATCH_NORM_REDUCE_H_
#define CANOPY_ACLNNOP_ACLNN_BATCH_NORM_REDUCE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormReduceGetWorkspaceSize(const aclTensor *x, aclTensor *sum,
                                                                     aclTensor *squareSum, uint64_t *workspaceSize,
                                                                     aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormReduce(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BATCH_NORM_REDUCE_H_ */
