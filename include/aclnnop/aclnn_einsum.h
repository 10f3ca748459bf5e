/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_einsum.h: Einstein summation of two tensors, for the equations
 * CANN registers: "abcd,abced->abce" and "a,b->ab" (any letters in that pattern).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_EINSUM_H_
#define CANOPY_ACLNNOP_ACLNN_EINSUM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnEinsumGetWorkspaceSize(const aclTensorList *tensors, const char *equation,
                                                            aclTensor *output, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnEinsum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_EINSUM_H_ */
