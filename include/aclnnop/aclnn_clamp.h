/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_clamp.h: the Clamp family, out = min(max(self, min), max),
 * with scalar or tensor bounds (either of Clamp's and ClampTensor's may be
 * absent, not both), and the in-place forms CANN declares.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CLAMP_H_
#define CANOPY_ACLNNOP_ACLNN_CLAMP_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Scalar bounds; clipValueMin or clipValueMax may be null. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnClampGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMin,
                                                           const aclScalar *clipValueMax, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnClamp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnClampMinGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMin,
                                                              aclTensor *out, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnClampMin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

/* Tensor bounds, broadcast with self; clipValueMin or clipValueMax may be null. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *clipValueMin,
                                                                 const aclTensor *clipValueMax, aclTensor *out,
                                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnClampTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnClampMinTensorGetWorkspaceSize(const aclTensor *self,
                                                                    const aclTensor *clipValueMin, aclTensor *out,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnClampMinTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceClampMinTensorGetWorkspaceSize(aclTensor *selfRef,
                                                                           const aclTensor *clipValueMin,
                                                                           uint64_t *workspaceSize,
                                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceClampMinTensor(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnClampMaxGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMax,
                                                              aclTensor *out, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnClampMax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);
/* Note: CANN declares selfRef as a pointer to const here. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceClampMaxGetWorkspaceSize(const aclTensor *selfRef,
                                                                     const aclScalar *clipValueMax,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceClampMax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnClampMaxTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *max,
                                                                    aclTensor *out, uint64_t *workspaceSize,
                                                                    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnClampMaxTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceClampMaxTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *max,
                                                                           uint64_t *workspaceSize,
                                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceClampMaxTensor(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CLAMP_H_ */
