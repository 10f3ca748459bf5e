/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_foreach_round_off_number_v2.h: ForeachRoundOffNumber with the rounding mode a host scalar.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FOREACH_ROUND_OFF_NUMBER_V2_H_
#define CANOPY_ACLNNOP_ACLNN_FOREACH_ROUND_OFF_NUMBER_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachRoundOffNumberV2GetWorkspaceSize(const aclTensorList *x,
                                                                             const aclScalar *roundMode,
                                                                             aclTensorList *out,
                                                                             uint64_t *workspaceSize,
                                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachRoundOffNumberV2(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FOREACH_ROUND_OFF_NUMBER_V2_H_ */
