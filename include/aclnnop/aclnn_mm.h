/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_mm.h: 2-D matrix product, out = self @ mat2.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MM_H_
#define CANOPY_ACLNNOP_ACLNN_MM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cubeMathType: see aclnn_matmul.h. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
                                                        int8_t cubeMathType, uint64_t *workspaceSize,
                                                        aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MM_H_ */
