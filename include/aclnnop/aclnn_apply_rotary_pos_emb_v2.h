/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_apply_rotary_pos_emb_v2.h: aclnnApplyRotaryPosEmbV2
 * (rotary position embedding of query and key in place, with a rotary mode).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_V2_H_
#define CANOPY_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyRotaryPosEmbV2GetWorkspaceSize(aclTensor *queryRef, aclTensor *keyRef,
                                                                         const aclTensor *cos, const aclTensor *sin,
                                                                         int64_t layout, char *rotaryMode,
                                                                         uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyRotaryPosEmbV2(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_V2_H_ */
