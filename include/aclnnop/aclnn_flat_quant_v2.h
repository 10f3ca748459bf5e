/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_flat_quant_v2.h: aclnnFlatQuantV2
 * (FlatQuant with dstTypeMax, the FLOAT4_E2M1 form's maximum).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FLAT_QUANT_V2_H_
#define CANOPY_ACLNNOP_ACLNN_FLAT_QUANT_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnFlatQuantV2GetWorkspaceSize(const aclTensor *x, const aclTensor *kroneckerP1,
                                                                 const aclTensor *kroneckerP2, double clipRatio,
                                                                 double dstTypeMax, aclTensor *out,
                                                                 aclTensor *quantScale, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFlatQuantV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FLAT_QUANT_V2_H_ */
