/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_add_n.h: out = tensors[0] + tensors[1] + ..., every tensor of out's shape and dtype.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADD_N_H_
#define CANOPY_ACLNNOP_ACLNN_ADD_N_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddNGetWorkspaceSize(const aclTensorList *tensors, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddN(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADD_N_H_ */
