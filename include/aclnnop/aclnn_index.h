/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_index.h: out = self[indices], PyTorch's advanced indexing by a list of index tensors or a mask.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_INDEX_H_
#define CANOPY_ACLNNOP_ACLNN_INDEX_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexGetWorkspaceSize(const aclTensor *self, const aclTensorList *indices,
                                                           aclTensor *out, uint64_t *workspaceSize,
                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIndex(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_INDEX_H_ */
