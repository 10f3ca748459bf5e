/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_weight_quant_batch_matmul.h: aclnnWeightQuantBatchMatmul, the first
 * weight-only quantised matmul (FLOAT16 x1, INT8 x2 dequantised to FLOAT16).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_H_
#define CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* m <= 64: x2 is dequantised by diagonalMatrix (INT8 [32, 32]), deqOffset (INT32) and deqScale
 * (UINT64, aclnnTransQuantParam's words); m > 64: by antiquantOffset, antiquantScale and the optional
 * addOffset and mulScale (FLOAT16). bias: FLOAT [n] or null; out: FLOAT16 [m, n]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnWeightQuantBatchMatmulGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *diagonalMatrix, const aclTensor *deqOffset,
    const aclTensor *deqScale, const aclTensor *addOffset, const aclTensor *mulScale, const aclTensor *bias,
    bool transposeX1, bool transposeX2, float antiquantScale, float antiquantOffset, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnWeightQuantBatchMatmul(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_H_ */
