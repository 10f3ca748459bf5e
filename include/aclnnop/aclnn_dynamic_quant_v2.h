/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_dynamic_quant_v2.h: aclnnDynamicQuantV2
 * (per-token symmetric or asymmetric dynamic quantisation to INT8 / INT4,
 * with per-expert smooth scales).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DYNAMIC_QUANT_V2_H_
#define CANOPY_ACLNNOP_ACLNN_DYNAMIC_QUANT_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDynamicQuantV2GetWorkspaceSize(
    const aclTensor *x, const aclTensor *smoothScalesOptional, const aclTensor *groupIndexOptional, int64_t dstType,
    const aclTensor *yOut, const aclTensor *scaleOut, const aclTensor *offsetOut, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDynamicQuantV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DYNAMIC_QUANT_V2_H_ */
