/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_grouped_matmul_swiglu_quant.h: aclnnGroupedMatmulSwigluQuant, MoE
 * experts' INT8 grouped products, dequantised per token and per channel, then
 * SwiGLU and per-row dynamic INT8 quantisation.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_SWIGLU_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_SWIGLU_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x INT8 [m, k]; weight INT8, FRACTAL_NZ [e, n / 32, k / 16, 16, 32] (or [e, k, n] as
 * TransMatmulWeight leaves it); weightScale FLOAT, FLOAT16 or BFLOAT16 [e, n]; xScale
 * FLOAT [m]; groupList INT64 [<= e] of cumulative row ends; output INT8 [m, n / 2];
 * outputScale FLOAT [m]. bias, offset and outputOffset may be null (not used). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulSwigluQuantGetWorkspaceSize(
    const aclTensor *x, const aclTensor *weight, const aclTensor *bias, const aclTensor *offset,
    const aclTensor *weightScale, const aclTensor *xScale, const aclTensor *groupList, aclTensor *output,
    aclTensor *outputScale, aclTensor *outputOffset, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulSwigluQuant(void *workspace, uint64_t workspaceSize,
                                                              aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_SWIGLU_QUANT_H_ */
