/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_addmm.h: out = beta * self + alpha * (mat1 @ mat2).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADDMM_H_
#define CANOPY_ACLNNOP_ACLNN_ADDMM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cubeMathType: see aclnn_matmul.h. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat1,
                                                           const aclTensor *mat2, const aclScalar *beta,
                                                           const aclScalar *alpha, aclTensor *out, int8_t cubeMathType,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

/* In-place form; result is written to selfRef (declared const by CANN). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddmmGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *mat1,
                                                                  const aclTensor *mat2, const aclScalar *beta,
                                                                  const aclScalar *alpha, int8_t cubeMathType,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

/* Variant taking mat2 in the FRACTAL_NZ weight layout. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddmmWeightNzGetWorkspaceSize(const aclTensor *self, const aclTensor *mat1,
                                                                   const aclTensor *mat2, const aclScalar *beta,
                                                                   const aclScalar *alpha, aclTensor *out,
                                                                   int8_t cubeMathType, uint64_t *workspaceSize,
                                                                   aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddmmWeightNz(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADDMM_H_ */
