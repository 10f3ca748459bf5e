/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_dequant_situ_quant.h: aclnnDequantSituQuant (x dequantised, the Situ gated unit
 * of its last dim's halves, quantised to INT8 statically or dynamically per row). Atlas A2: x INT8,
 * INT32, BFLOAT16, FLOAT16; weightScaleOptional, activationScaleOptional, biasOptional,
 * quantScaleOptional, quantOffsetOptional FLOAT; groupIndexOptional INT64; yOut INT8; yScaleOut FLOAT.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DEQUANT_SITU_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_DEQUANT_SITU_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDequantSituQuantGetWorkspaceSize(
    const aclTensor *x, const aclTensor *weightScaleOptional, const aclTensor *activationScaleOptional,
    const aclTensor *biasOptional, const aclTensor *quantScaleOptional, const aclTensor *quantOffsetOptional,
    const aclTensor *groupIndexOptional, float beta, float linearBeta, bool activateLeft, char *quantTypeOptional,
    const aclTensor *yOut, const aclTensor *yScaleOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDequantSituQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DEQUANT_SITU_QUANT_H_ */
