/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_index_add.h: out = self with alpha * source's slices along dim added at the positions index gives.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_INDEX_ADD_H_
#define CANOPY_ACLNNOP_ACLNN_INDEX_ADD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexAddGetWorkspaceSize(const aclTensor *self, const int64_t dim,
                                                              const aclTensor *index, const aclTensor *source,
                                                              const aclScalar *alpha, aclTensor *out,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_INDEX_ADD_H_ */
