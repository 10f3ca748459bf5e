/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_swi_glu_quant.h: aclnnSwiGluQuant (SwiGlu of x's last dim, quantised to INT8,
 * dynamically per row or statically per tensor / per channel, MoE groups by groupIndexOptional).
 * Atlas A2: x FLOAT16, BFLOAT16, FLOAT; smoothScalesOptional and offsetsOptional FLOAT;
 * groupIndexOptional INT32; yOut INT8; scaleOut FLOAT.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SWI_GLU_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_SWI_GLU_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSwiGluQuantGetWorkspaceSize(
    const aclTensor *x, const aclTensor *smoothScalesOptional, const aclTensor *offsetsOptional,
    const aclTensor *groupIndexOptional, bool activateLeft, char *quantModeOptional, const aclTensor *yOut,
    const aclTensor *scaleOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSwiGluQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SWI_GLU_QUANT_H_ */
