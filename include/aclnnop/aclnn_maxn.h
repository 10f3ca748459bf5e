/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_maxn.h: out = the elementwise maximum of every tensor of the list, broadcast together (NaN
 * propagates).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MAXN_H_
#define CANOPY_ACLNNOP_ACLNN_MAXN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxNGetWorkspaceSize(const aclTensorList *tensors, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxN(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MAXN_H_ */
