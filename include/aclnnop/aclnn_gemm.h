/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_gemm.h: out = alpha * op(A) @ op(B) + beta * C, op a transpose when transA / transB is 1.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GEMM_H_
#define CANOPY_ACLNNOP_ACLNN_GEMM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cubeMathType: see aclnn_matmul.h. C broadcasts to [M, N]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGemmGetWorkspaceSize(const aclTensor *A, const aclTensor *B, const aclTensor *C,
                                                          float alpha, float beta, int64_t transA, int64_t transB,
                                                          aclTensor *out, int8_t cubeMathType, uint64_t *workspaceSize,
                                                          aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGemm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GEMM_H_ */
