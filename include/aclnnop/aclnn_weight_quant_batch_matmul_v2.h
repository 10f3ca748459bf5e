/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_weight_quant_batch_matmul_v2.h: a product with a weight
 * quantised to INT8 or INT4, y = x @ ((weight + antiquantOffset) * antiquantScale) + bias.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_
#define CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x [m, k] FLOAT16 or BFLOAT16; weight [k, n] INT8 or INT4 (ND or FRACTAL_NZ);
 * antiquantScale (and antiquantOffsetOptional) of x's dtype: [1] or [1, 1] per
 * tensor, [n] or [1, n] per channel (antiquantGroupSize 0), [ceil(k / group), n]
 * per group; biasOptional [n] or [1, n]; y [m, n] of x's dtype. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
    const aclTensor *x, const aclTensor *weight, const aclTensor *antiquantScale,
    const aclTensor *antiquantOffsetOptional, const aclTensor *quantScaleOptional, const aclTensor *quantOffsetOptional,
    const aclTensor *biasOptional, int antiquantGroupSize, const aclTensor *y, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnWeightQuantBatchMatmulV2(void *workspace, uint64_t workspaceSize,
                                                              aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_ */
