/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_moe_finalize_routing_v2.h: aclnnMoeFinalizeRoutingV2
 * (MoE: combine the experts' outputs into token order, optional terms).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_V2_H_
#define CANOPY_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeFinalizeRoutingV2GetWorkspaceSize(
    const aclTensor *expandedX, const aclTensor *expandedRowIdx, const aclTensor *x1Optional,
    const aclTensor *x2Optional, const aclTensor *biasOptional, const aclTensor *scalesOptional,
    const aclTensor *expertIdxOptional, int64_t dropPadMode, const aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeFinalizeRoutingV2(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_V2_H_ */
