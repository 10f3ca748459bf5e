/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_group_norm_silu_quant.h: aclnnGroupNormSiluQuant.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUP_NORM_SILU_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_GROUP_NORM_SILU_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormSiluQuantGetWorkspaceSize(
    const aclTensor *self, const aclTensor *gammaOptional, const aclTensor *betaOptional, const aclTensor *quantScale,
    int64_t group, double eps, bool activateSilu, aclTensor *out, aclTensor *meanOut, aclTensor *rstdOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormSiluQuant(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUP_NORM_SILU_QUANT_H_ */
