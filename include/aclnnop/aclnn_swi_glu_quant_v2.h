/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_swi_glu_quant_v2.h: aclnnSwiGluQuantV2 (aclnnSwiGluQuant with groupIndexOptional
 * as cumulative ends or counts by groupListType, and INT8 or INT4 yOut by dstType 2 or 29).
 * Atlas A2: x FLOAT16, BFLOAT16, FLOAT; smoothScalesOptional and offsetsOptional FLOAT;
 * groupIndexOptional INT32; yOut INT8, INT4; scaleOut FLOAT.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SWI_GLU_QUANT_V2_H_
#define CANOPY_ACLNNOP_ACLNN_SWI_GLU_QUANT_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSwiGluQuantV2GetWorkspaceSize(
    const aclTensor *x, const aclTensor *smoothScalesOptional, const aclTensor *offsetsOptional,
    const aclTensor *groupIndexOptional, bool activateLeft, char *quantModeOptional, int64_t groupListType,
    int64_t dstType, const aclTensor *yOut, const aclTensor *scaleOut, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSwiGluQuantV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SWI_GLU_QUANT_V2_H_ */
