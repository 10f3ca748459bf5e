/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_foreach_a_cos_inplace.h: aclnnForeachACosInplace.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FOREACH_A_COS_INPLACE_H_
#define CANOPY_ACLNNOP_ACLNN_FOREACH_A_COS_INPLACE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachACosInplaceGetWorkspaceSize(const aclTensorList *x, uint64_t *workspaceSize,
                                                                        aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachACosInplace(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FOREACH_A_COS_INPLACE_H_ */
