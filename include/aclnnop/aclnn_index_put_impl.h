/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_index_put_impl.h: selfRef[indices] = values (or += values), PyTorch's index_put_.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H_
#define CANOPY_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor *selfRef, const aclTensorList *indices,
                                                                  const aclTensor *values, const bool accumulate,
                                                                  const bool unsafe, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexPutImpl(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H_ */
