/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_add_layer_norm_quant_v2.h: aclnnAddLayerNormQuantV2.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADD_LAYER_NORM_QUANT_V2_H_
#define CANOPY_ACLNNOP_ACLNN_ADD_LAYER_NORM_QUANT_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddLayerNormQuantV2GetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *gamma, const aclTensor *beta,
    const aclTensor *biasOptional, const aclTensor *scales1Optional, const aclTensor *scales2Optional,
    const aclTensor *zeroPoints1Optional, const aclTensor *zeroPoints2Optional, const char *quantMode, double epsilon,
    bool additionalOutput, bool divMode, aclTensor *y1Out, aclTensor *y2Out, aclTensor *xOut, aclTensor *layernormRes,
    aclTensor *outScales1Out, aclTensor *outScales2Out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddLayerNormQuantV2(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADD_LAYER_NORM_QUANT_V2_H_ */
