/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_transpose_batch_mat_mul.h: a batched product of permuted 3-D
 * operands, stored permuted: out = permute(permute(x1, permX1) @ permute(x2, permX2), permY);
 * aclnnTransposeBatchMatMulWeightNz takes x2 in FRACTAL_NZ.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TRANSPOSE_BATCH_MAT_MUL_H_
#define CANOPY_ACLNNOP_ACLNN_TRANSPOSE_BATCH_MAT_MUL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* permX1 [0, 1, 2] or [1, 0, 2]; permX2 [0, 1, 2] or [0, 2, 1]; permY [1, 0, 2].
 * bias is reserved (must be null); scale (INT8 out) may be null.
 * batchSplitFactor f > 1 gives out [f, M, B * N / f]. cubeMathType: see aclnn_matmul.h. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransposeBatchMatMulGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *bias, const aclTensor *scale, const aclIntArray *permX1,
    const aclIntArray *permX2, const aclIntArray *permY, int8_t cubeMathType, const int32_t batchSplitFactor,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransposeBatchMatMul(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, const aclrtStream stream);

/* The same with x2 prepared by aclnnTransMatmulWeight (FRACTAL_NZ); x1, x2
 * FLOAT16 or BFLOAT16, out of x1's dtype. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransposeBatchMatMulWeightNzGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *bias, const aclTensor *scale, const aclIntArray *permX1,
    const aclIntArray *permX2, const aclIntArray *permY, int8_t cubeMathType, const int32_t batchSplitFactor,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransposeBatchMatMulWeightNz(void *workspace, uint64_t workspaceSize,
                                                                  aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TRANSPOSE_BATCH_MAT_MUL_H_ */
