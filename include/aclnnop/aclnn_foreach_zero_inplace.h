/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_foreach_zero_inplace.h: aclnnForeachZeroInplace.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FOREACH_ZERO_INPLACE_H_
#define CANOPY_ACLNNOP_ACLNN_FOREACH_ZERO_INPLACE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachZeroInplaceGetWorkspaceSize(const aclTensorList *x, uint64_t *workspaceSize,
                                                                        aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachZeroInplace(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FOREACH_ZERO_INPLACE_H_ */
