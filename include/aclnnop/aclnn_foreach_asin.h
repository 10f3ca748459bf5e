/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_foreach_asin.h: aclnnForeachAsin.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FOREACH_ASIN_H_
#define CANOPY_ACLNNOP_ACLNN_FOREACH_ASIN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachAsinGetWorkspaceSize(const aclTensorList *x, const aclTensorList *out,
                                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachAsin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FOREACH_ASIN_H_ */
