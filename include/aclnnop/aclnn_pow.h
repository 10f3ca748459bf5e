/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_pow.h: out = self ^ exponent with a scalar exponent
 * (aclnnPowTensorScalar, aclnnInplacePowTensorScalar) or a scalar base
 * (aclnnPowScalarTensor).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_POW_H_
#define CANOPY_ACLNNOP_ACLNN_POW_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Note: CANN declares out as a pointer to const here. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *exponent,
                                                                     const aclTensor *out, uint64_t *workspaceSize,
                                                                     aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnPowTensorScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

/* In place: self = self ^ exponent (CANN names the in-place tensor `self`). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(const aclTensor *self,
                                                                            const aclScalar *exponent,
                                                                            uint64_t *workspaceSize,
                                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePowTensorScalar(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, aclrtStream stream);

/* A scalar base raised to each element of exponent; out has exponent's shape. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar *self, const aclTensor *exponent,
                                                                     const aclTensor *out, uint64_t *workspaceSize,
                                                                     aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnPowScalarTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_POW_H_ */
