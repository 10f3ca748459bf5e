/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_reduce_log_sum.h: aclnnReduceLogSum.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_REDUCE_LOG_SUM_H_
#define CANOPY_ACLNNOP_ACLNN_REDUCE_LOG_SUM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnReduceLogSumGetWorkspaceSize(const aclTensor *data, const aclIntArray *axes,
                                                                  bool keepDims, bool noopWithEmptyAxes,
                                                                  aclTensor *reduce, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnReduceLogSum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_REDUCE_LOG_SUM_H_ */
