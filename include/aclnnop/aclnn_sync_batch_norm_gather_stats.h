/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_sync_batch_norm_gather_stats.h: aclnnSyncBatchNormGatherStats.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SYNC_BATCH_NORM_GATHER_STATS_H_
#define CANOPY_ACLNNOP_ACLNN_SYNC_BATCH_NORM_GATHER_STATS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSyncBatchNormGatherStatsGetWorkspaceSize(
    const aclTensor *totalSum, const aclTensor *totalSquareSum, const aclTensor *sampleCount, aclTensor *mean,
    aclTensor *variance, float momentum, float eps, aclTensor *batchMean, aclTensor *batchInvstd,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSyncBatchNormGatherStats(void *workspace, uint64_t workspaceSize,
                                                              aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SYNC_BATCH_NORM_GATHER_STATS_H_ */
