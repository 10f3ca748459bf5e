/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_channel_shuffle.h: the channels (dimension 1) of self, in groups of C / groups, interleaved
 * (torch.nn.functional.channel_shuffle).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CHANNEL_SHUFFLE_H_
#define CANOPY_ACLNNOP_ACLNN_CHANNEL_SHUFFLE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnChannelShuffleGetWorkspaceSize(const aclTensor *self, int64_t groups,
                                                                    aclTensor *out, uint64_t *workspaceSize,
                                                                    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnChannelShuffle(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CHANNEL_SHUFFLE_H_ */
