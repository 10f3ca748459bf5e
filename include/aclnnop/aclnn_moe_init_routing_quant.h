/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_moe_init_routing_quant.h: aclnnMoeInitRoutingQuant
 * (MoeInitRouting with the expanded rows quantised to INT8: rint(x * scale + offset)).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeInitRoutingQuantGetWorkspaceSize(
    const aclTensor *x, const aclTensor *rowIdx, const aclTensor *expertIdx, int64_t activeNum, double scale,
    double offset, const aclTensor *expandedXOut, const aclTensor *expandedRowIdxOut,
    const aclTensor *expandedExpertIdxOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeInitRoutingQuant(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_H_ */
