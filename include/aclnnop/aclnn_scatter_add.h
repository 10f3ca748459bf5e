/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_scatter_add.h: out = self with src's elements added at the positions index gives along dim.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SCATTER_ADD_H_
#define CANOPY_ACLNNOP_ACLNN_SCATTER_ADD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                                                const aclTensor *index, const aclTensor *src,
                                                                aclTensor *out, uint64_t *workspaceSize,
                                                                aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SCATTER_ADD_H_ */
