/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_top_k_top_p_sample_v2.h: per row of logits [B, V], top-k, top-p and min-p
 * filtering of the (optionally softmax-normalised) logits, then either the pick of one token
 * (the largest survivor, or the largest survivor divided by |q| + eps when q is given) or the
 * filtered, sorted survivors and their positions as intermediate results.
 * Atlas A2: logits, topP and minPs FLOAT16, BFLOAT16 or FLOAT (one dtype for the three), topK
 * INT32, q FLOAT; logitsSelectIdx and logitsIdx INT64, logitsTopKPSelect and logitsSortMasked FLOAT.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TOP_K_TOP_P_SAMPLE_V2_H_
#define CANOPY_ACLNNOP_ACLNN_TOP_K_TOP_P_SAMPLE_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnTopKTopPSampleV2GetWorkspaceSize(
    const aclTensor *logits, const aclTensor *topK, const aclTensor *topP, const aclTensor *q, const aclTensor *minPs,
    double eps, bool isNeedLogits, int64_t topKGuess, int64_t ksMax, bool inputIsLogits, bool isNeedSampleResult,
    const aclTensor *logitsSelectIdx, const aclTensor *logitsTopKPSelect, const aclTensor *logitsIdx,
    const aclTensor *logitsSortMasked, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTopKTopPSampleV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TOP_K_TOP_P_SAMPLE_V2_H_ */
