/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_minn.h: out = the elementwise minimum of every tensor of the list, broadcast together (NaN
 * propagates).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MINN_H_
#define CANOPY_ACLNNOP_ACLNN_MINN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMinNGetWorkspaceSize(const aclTensorList *tensors, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMinN(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MINN_H_ */
