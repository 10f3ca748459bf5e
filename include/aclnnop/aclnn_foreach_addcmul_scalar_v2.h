/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_foreach_addcmul_scalar_v2.h: aclnnForeachAddcmulScalarV2.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FOREACH_ADDCMUL_SCALAR_V2_H_
#define CANOPY_ACLNNOP_ACLNN_FOREACH_ADDCMUL_SCALAR_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachAddcmulScalarV2GetWorkspaceSize(
    const aclTensorList *x1, const aclTensorList *x2, const aclTensorList *x3, const aclScalar *scalar,
    aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachAddcmulScalarV2(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FOREACH_ADDCMUL_SCALAR_V2_H_ */
