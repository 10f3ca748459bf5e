/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_foreach_minimum_scalar_list.h: aclnnForeachMinimumScalarList.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FOREACH_MINIMUM_SCALAR_LIST_H_
#define CANOPY_ACLNNOP_ACLNN_FOREACH_MINIMUM_SCALAR_LIST_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachMinimumScalarListGetWorkspaceSize(const aclTensorList *x,
                                                                              const aclScalarList *scalars,
                                                                              const aclTensorList *out,
                                                                              uint64_t *workspaceSize,
                                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachMinimumScalarList(void *workspace, uint64_t workspaceSize,
                                                              aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FOREACH_MINIMUM_SCALAR_LIST_H_ */
