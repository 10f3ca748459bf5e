/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_addmv.h: out = beta * self + alpha * (mat @ vec).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADDMV_H_
#define CANOPY_ACLNNOP_ACLNN_ADDMV_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Note the order: alpha comes before beta. cubeMathType: see aclnn_matmul.h. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddmvGetWorkspaceSize(const aclTensor *self, const aclTensor *mat,
                                                           const aclTensor *vec, const aclScalar *alpha,
                                                           const aclScalar *beta, aclTensor *out, int8_t cubeMathType,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddmv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADDMV_H_ */
