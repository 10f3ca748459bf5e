/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_index_fill_tensor.h: the slices of self along dim at the given indices set to value.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_INDEX_FILL_TENSOR_H_
#define CANOPY_ACLNNOP_ACLNN_INDEX_FILL_TENSOR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexFillTensorGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                                                     const aclIntArray *index, const aclScalar *value,
                                                                     aclTensor *out, uint64_t *workspaceSize,
                                                                     aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexFillTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceIndexFillTensorGetWorkspaceSize(aclTensor *selfRef, int64_t dim,
                                                                            const aclIntArray *index,
                                                                            const aclScalar *value,
                                                                            uint64_t *workspaceSize,
                                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceIndexFillTensor(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_INDEX_FILL_TENSOR_H_ */
