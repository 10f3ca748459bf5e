/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_split_tensor.h: self cut along dim into pieces of splitSections
 * elements (the last one smaller). Every operator has two phases:
 * aclnnXxxGetWorkspaceSize validates the arguments and builds an executor,
 * aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SPLIT_TENSOR_H_
#define CANOPY_ACLNNOP_ACLNN_SPLIT_TENSOR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor *self, uint64_t splitSections,
                                                                 int64_t dim, aclTensorList *out,
                                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSplitTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SPLIT_TENSOR_H_ */
