/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_foreach_addcdiv_list.h: aclnnForeachAddcdivList.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FOREACH_ADDCDIV_LIST_H_
#define CANOPY_ACLNNOP_ACLNN_FOREACH_ADDCDIV_LIST_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachAddcdivListGetWorkspaceSize(
    const aclTensorList *x1, const aclTensorList *x2, const aclTensorList *x3, const aclTensor *scalars,
    const aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachAddcdivList(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FOREACH_ADDCDIV_LIST_H_ */
