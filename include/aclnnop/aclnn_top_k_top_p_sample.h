/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_top_k_top_p_sample.h: per row of logits [B, V], top-k then top-p filtering and
 * the pick of one token (the argmax of the survivors' softmax, divided by |q| + eps when the
 * exponential-race weights q are given), with the filtered logits on request.
 * Atlas A2: logits and topP FLOAT16 or BFLOAT16, topK INT32, q FLOAT; outputs INT64 and FLOAT.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TOP_K_TOP_P_SAMPLE_H_
#define CANOPY_ACLNNOP_ACLNN_TOP_K_TOP_P_SAMPLE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnTopKTopPSampleGetWorkspaceSize(const aclTensor *logits, const aclTensor *topK,
                                                                    const aclTensor *topP, const aclTensor *q,
                                                                    double eps, bool isNeedLogits, int64_t topKGuess,
                                                                    const aclTensor *logitsSelectIdx,
                                                                    const aclTensor *logitsTopKPSelect,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTopKTopPSample(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TOP_K_TOP_P_SAMPLE_H_ */
