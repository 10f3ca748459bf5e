/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_weight_quant_batch_matmul_v3.h: aclnnWeightQuantBatchMatmulV3,
 * WeightQuantBatchMatmulV2 with innerPrecise (0 high precision, 1 high
 * performance: the same f32 computation on Canopy).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V3_H_
#define CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V3_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnWeightQuantBatchMatmulV3GetWorkspaceSize(
    const aclTensor *x, const aclTensor *weight, const aclTensor *antiquantScale,
    const aclTensor *antiquantOffsetOptional, const aclTensor *quantScaleOptional, const aclTensor *quantOffsetOptional,
    const aclTensor *biasOptional, int antiquantGroupSize, int innerPrecise, const aclTensor *y,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnWeightQuantBatchMatmulV3(void *workspace, uint64_t workspaceSize,
                                                              aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V3_H_ */
