/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_roll.h: x rolled by shifts along dims (or flattened, when dims is empty).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ROLL_H_
#define CANOPY_ACLNNOP_ACLNN_ROLL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor *x, const aclIntArray *shifts,
                                                          const aclIntArray *dims, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRoll(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ROLL_H_ */
