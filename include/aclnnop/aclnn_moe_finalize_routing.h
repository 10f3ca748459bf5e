/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_moe_finalize_routing.h: aclnnMoeFinalizeRouting
 * (MoE: combine the experts' outputs into token order).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_H_
#define CANOPY_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeFinalizeRoutingGetWorkspaceSize(
    const aclTensor *expandedX, const aclTensor *x1, const aclTensor *x2Optional, const aclTensor *bias,
    const aclTensor *scales, const aclTensor *expandedRowIdx, const aclTensor *expandedExpertIdx, const aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeFinalizeRouting(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MOE_FINALIZE_ROUTING_H_ */
