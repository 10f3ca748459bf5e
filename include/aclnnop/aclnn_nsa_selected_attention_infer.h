/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_nsa_selected_attention_infer.h: aclnnNsaSelectedAttentionInfer
 * (NSA's selected attention at inference: each query token of a sequence
 * attends to the select blocks topkIndices names for its key head, the keys
 * and values read from a paged cache through blockTableOptional; layouts BSH,
 * BSND and TND, at most 4 query tokens per sequence).
 * Atlas A2 dtypes: query, key, value and output FLOAT16 or BFLOAT16 (one
 * dtype); topkIndices and blockTableOptional INT32; attenMaskOptional is
 * reserved and not read.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_INFER_H_
#define CANOPY_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_INFER_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNsaSelectedAttentionInferGetWorkspaceSize(
    const aclTensor *query, const aclTensor *key, const aclTensor *value, const aclTensor *topkIndices,
    const aclTensor *attenMaskOptional, const aclTensor *blockTableOptional, const aclIntArray *actualQSeqLenOptional,
    const aclIntArray *actualKvSeqLenOptional, char *layoutOptional, int64_t numHeads, int64_t numKeyValueHeads,
    int64_t selectBlockSize, int64_t selectBlockCount, int64_t pageBlockSize, double scaleValue, int64_t sparseMode,
    aclTensor *output, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNsaSelectedAttentionInfer(void *workspace, uint64_t workspaceSize,
                                                               aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NSA_SELECTED_ATTENTION_INFER_H_ */
