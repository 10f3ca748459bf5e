/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_grouped_matmul_swiglu_quant_weight_nz.h:
 * aclnnGroupedMatmulSwigluQuantWeightNZ, aclnnGroupedMatmulSwigluQuant with the
 * weight taken as FRACTAL_NZ whatever its descriptor's format says.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_SWIGLU_QUANT_WEIGHT_NZ_H_
#define CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_SWIGLU_QUANT_WEIGHT_NZ_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* As aclnnGroupedMatmulSwigluQuant; a 5-D weight is the NZ blocks [e, n / 32, k / 16,
 * 16, 32], a 3-D one the [e, k, n] view of an NZ weight. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulSwigluQuantWeightNZGetWorkspaceSize(
    const aclTensor *x, const aclTensor *weight, const aclTensor *bias, const aclTensor *offset,
    const aclTensor *weightScale, const aclTensor *xScale, const aclTensor *groupList, aclTensor *output,
    aclTensor *outputScale, aclTensor *outputOffset, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulSwigluQuantWeightNZ(void *workspace, uint64_t workspaceSize,
                                                                      aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_SWIGLU_QUANT_WEIGHT_NZ_H_ */
