/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_bitwise_and_scalar.h: aclnnBitwiseAndScalar and aclnnInplaceBitwiseAndScalar.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H_
#define CANOPY_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBitwiseAndScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
                                                                      aclTensor *out, uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBitwiseAndScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBitwiseAndScalarGetWorkspaceSize(const aclTensor *selfRef,
                                                                             const aclScalar *other,
                                                                             uint64_t *workspaceSize,
                                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBitwiseAndScalar(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H_ */
