/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_foreach_round_off_number.h: each tensor of x rounded to integral values by the mode in the one-
 * element INT8 tensor roundMode (1 rint, 2 floor, 3 ceil, 4 half away from zero, 5 trunc, 6 to odd, 7 the
 * fraction).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FOREACH_ROUND_OFF_NUMBER_H_
#define CANOPY_ACLNNOP_ACLNN_FOREACH_ROUND_OFF_NUMBER_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachRoundOffNumberGetWorkspaceSize(const aclTensorList *x,
                                                                           const aclTensor *roundMode,
                                                                           const aclTensorList *out,
                                                                           uint64_t *workspaceSize,
                                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnForeachRoundOffNumber(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FOREACH_ROUND_OFF_NUMBER_H_ */
