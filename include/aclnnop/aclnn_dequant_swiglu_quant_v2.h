/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_dequant_swiglu_quant_v2.h: aclnnDequantSwigluQuantV2 (aclnnDequantSwigluQuant with
 * the output dtype, rounding and split axis named, and GPT-OSS's clamped SwiGlu variants by
 * swigluMode). Atlas A2: x INT32 or BFLOAT16 [rows, 2H]; groupIndexOptional INT64 [groupNum]
 * required; dstType 2 (INT8); roundModeOptional "rint"; activateDim -1; the scales and offsets
 * FLOAT; biasOptional FLOAT, FLOAT16, BFLOAT16, INT32; yOut INT8; scaleOut FLOAT.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_V2_H_
#define CANOPY_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDequantSwigluQuantV2GetWorkspaceSize(
    const aclTensor *x, const aclTensor *weightScaleOptional, const aclTensor *activationScaleOptional,
    const aclTensor *biasOptional, const aclTensor *quantScaleOptional, const aclTensor *quantOffsetOptional,
    const aclTensor *groupIndexOptional, bool activateLeft, char *quantModeOptional, int64_t dstType,
    char *roundModeOptional, int64_t activateDim, int64_t swigluMode, double clampLimit, double gluAlpha,
    double gluBias, const aclTensor *yOut, const aclTensor *scaleOut, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDequantSwigluQuantV2(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_V2_H_ */
