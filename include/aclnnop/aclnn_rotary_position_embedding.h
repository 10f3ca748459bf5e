/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_rotary_position_embedding.h: aclnnRotaryPositionEmbedding.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_
#define CANOPY_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor *x, const aclTensor *cos,
                                                                             const aclTensor *sin, int64_t mode,
                                                                             aclTensor *out, uint64_t *workspaceSize,
                                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRotaryPositionEmbedding(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_ */
