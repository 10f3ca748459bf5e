/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_fused_linear_online_max_sum.h: aclnnFusedLinearOnlineMaxSum,
 * the first half of Megatron's vocabulary-parallel cross entropy fused with
 * its matmul: logits = input @ weight^T, per row their max, the sum of
 * exp(logits - max), the target's logit (target inside [vocabStartIndex,
 * vocabEndIndex)), the bit-packed target mask and the local target index.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FUSED_LINEAR_ONLINE_MAX_SUM_H_
#define CANOPY_ACLNNOP_ACLNN_FUSED_LINEAR_ONLINE_MAX_SUM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* input [m, k], weight [v, k]: FLOAT16 or BFLOAT16 (one dtype); target [m]:
 * INT32 or INT64. logitsMaxLocalOut, sumExpLogitsLocalOut,
 * predictedLogitsLocalOut: FLOAT [m]; targetMaskOut: UINT8 [(m + 7) / 8];
 * maskedTargetOut: target's dtype [m]; vocabParallelLogitsOutOptional: input's
 * dtype [m, v] or null. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedLinearOnlineMaxSumGetWorkspaceSize(
    const aclTensor *input, const aclTensor *weight, const aclTensor *target, int64_t vocabStartIndex,
    int64_t vocabEndIndex, aclTensor *logitsMaxLocalOut, aclTensor *sumExpLogitsLocalOut,
    aclTensor *predictedLogitsLocalOut, aclTensor *targetMaskOut, aclTensor *maskedTargetOut,
    aclTensor *vocabParallelLogitsOutOptional, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFusedLinearOnlineMaxSum(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FUSED_LINEAR_ONLINE_MAX_SUM_H_ */
