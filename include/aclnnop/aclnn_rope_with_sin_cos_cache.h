/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_rope_with_sin_cos_cache.h: aclnnRopeWithSinCosCache
 * (rotary position embedding of query and key from a cos/sin cache).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ROPE_WITH_SIN_COS_CACHE_H_
#define CANOPY_ACLNNOP_ACLNN_ROPE_WITH_SIN_COS_CACHE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRopeWithSinCosCacheGetWorkspaceSize(
    const aclTensor *positions, const aclTensor *queryIn, const aclTensor *keyIn, const aclTensor *cosSinCache,
    const aclIntArray *mropeSection, int64_t headSize, bool isNeoxStyle, aclTensor *queryOut, aclTensor *keyOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRopeWithSinCosCache(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ROPE_WITH_SIN_COS_CACHE_H_ */
