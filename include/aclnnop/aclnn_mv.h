/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_mv.h: matrix-vector product, out = self @ vec.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MV_H_
#define CANOPY_ACLNNOP_ACLNN_MV_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self [n, m], vec [m], out [n], all of one dtype (FLOAT, FLOAT16, BFLOAT16).
 * cubeMathType: see aclnn_matmul.h. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor *self, const aclTensor *vec, aclTensor *out,
                                                        int8_t cubeMathType, uint64_t *workspaceSize,
                                                        aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MV_H_ */
