/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_foreach_non_finite_check_and_unscale.h: aclnnForeachNonFiniteCheckAndUnscale.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FOREACH_NON_FINITE_CHECK_AND_UNSCALE_H_
#define CANOPY_ACLNNOP_ACLNN_FOREACH_NON_FINITE_CHECK_AND_UNSCALE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(const aclTensorList *scaledGrads,
                                                                                     const aclTensor *foundInf,
                                                                                     const aclTensor *invScale,
                                                                                     uint64_t *workspaceSize,
                                                                                     aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachNonFiniteCheckAndUnscale(void *workspace, uint64_t workspaceSize,
                                                                     aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FOREACH_NON_FINITE_CHECK_AND_UNSCALE_H_ */
