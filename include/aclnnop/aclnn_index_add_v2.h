/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_index_add_v2.h: out = self, then alpha times each slice k of source along dim added to out's
 * slice index[k]; mode 0 (CANN's fast path: 2-D self, dim 0, alpha not applied) or any other mode (alpha
 * applied).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_INDEX_ADD_V2_H_
#define CANOPY_ACLNNOP_ACLNN_INDEX_ADD_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexAddV2GetWorkspaceSize(const aclTensor *self, const int64_t dim,
                                                                const aclTensor *index, const aclTensor *source,
                                                                const aclScalar *alpha, int64_t mode, aclTensor *out,
                                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexAddV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_INDEX_ADD_V2_H_ */
