/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_foreach_lerp_list.h: aclnnForeachLerpList.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FOREACH_LERP_LIST_H_
#define CANOPY_ACLNNOP_ACLNN_FOREACH_LERP_LIST_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachLerpListGetWorkspaceSize(const aclTensorList *x1, const aclTensorList *x2,
                                                                     const aclTensorList *weight,
                                                                     const aclTensorList *out, uint64_t *workspaceSize,
                                                                     aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachLerpList(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FOREACH_LERP_LIST_H_ */
