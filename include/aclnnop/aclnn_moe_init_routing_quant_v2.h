/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_moe_init_routing_quant_v2.h: aclnnMoeInitRoutingQuantV2
 * (MoE: MoeInitRoutingV2's routing with the expanded rows quantised to INT8,
 * statically with one scale and offset, or dynamically per row).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_V2_H_
#define CANOPY_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeInitRoutingQuantV2GetWorkspaceSize(
    const aclTensor *x, const aclTensor *expertIdx, const aclTensor *scaleOptional, const aclTensor *offsetOptional,
    int64_t activeNum, int64_t expertCapacity, int64_t expertNum, int64_t dropPadMode,
    int64_t expertTokensCountOrCumsumFlag, bool expertTokensBeforeCapacityFlag, int64_t quantMode,
    const aclTensor *expandedXOut, const aclTensor *expandedRowIdxOut,
    const aclTensor *expertTokensCountOrCumsumOutOptional, const aclTensor *expertTokensBeforeCapacityOutOptional,
    const aclTensor *dynamicQuantScaleOutOptional, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeInitRoutingQuantV2(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MOE_INIT_ROUTING_QUANT_V2_H_ */
