/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_split_with_size.h: self cut along dim into pieces of the given
 * extents. Every operator has two phases: aclnnXxxGetWorkspaceSize validates
 * the arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H_
#define CANOPY_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor *self, const aclIntArray *splitSize,
                                                                   int64_t dim, aclTensorList *out,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSplitWithSize(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H_ */
