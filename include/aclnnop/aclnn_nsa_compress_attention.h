/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_nsa_compress_attention.h: aclnnNsaCompressAttention (NSA's
 * attention over compressed keys and values, in TND layout, with the softmax
 * statistics and, per query token and key head, the indices of the
 * selectBlockCount select blocks of highest importance score).
 * Atlas A2 dtypes: query, key, value and attentionOutOut FLOAT16 or BFLOAT16
 * (one dtype); attenMaskOptional and topkMaskOptional BOOL or UINT8;
 * softmaxMaxOut and softmaxSumOut FLOAT; topkIndicesOut INT32.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_H_
#define CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNsaCompressAttentionGetWorkspaceSize(
    const aclTensor *query, const aclTensor *key, const aclTensor *value, const aclTensor *attenMaskOptional,
    const aclTensor *topkMaskOptional, const aclIntArray *actualSeqQLenOptional,
    const aclIntArray *actualCmpSeqKvLenOptional, const aclIntArray *actualSelSeqKvLenOptional, double scaleValue,
    int64_t headNum, char *inputLayout, int64_t sparseMode, int64_t compressBlockSize, int64_t compressStride,
    int64_t selectBlockSize, int64_t selectBlockCount, const aclTensor *softmaxMaxOut, const aclTensor *softmaxSumOut,
    const aclTensor *attentionOutOut, const aclTensor *topkIndicesOut, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNsaCompressAttention(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_H_ */
