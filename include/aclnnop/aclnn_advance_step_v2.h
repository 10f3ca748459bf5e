/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_advance_step_v2.h: aclnnAdvanceStepV2
 * (vLLM's decode-step bookkeeping: next input tokens, positions, sequence
 * lengths and KV-cache slots, in place; with speculative tokens).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADVANCE_STEP_V2_H_
#define CANOPY_ACLNNOP_ACLNN_ADVANCE_STEP_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAdvanceStepV2GetWorkspaceSize(
    const aclTensor *inputTokens, const aclTensor *sampledTokenIds, const aclTensor *inputPositions,
    const aclTensor *seqLens, const aclTensor *slotMapping, const aclTensor *blockTables, const aclTensor *specToken,
    const aclTensor *acceptedNum, int64_t numSeqs, int64_t numQueries, int64_t blockSize, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAdvanceStepV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADVANCE_STEP_V2_H_ */
