/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_nsa_compress_attention_infer.h: aclnnNsaCompressAttentionInfer
 * (NSA's compressed attention for inference: one to four query tokens per
 * sequence, TND or BSND, against compressed keys and values in a paged cache,
 * with the indices of the selectBlockCount select blocks of highest
 * importance score per token and key head).
 * Atlas A2 dtypes: query, key, value and output FLOAT16 or BFLOAT16 (one
 * dtype); blockTableOptional and topKOutput INT32; attentionMaskOptional and
 * topKMaskOptional BOOL.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_INFER_H_
#define CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_INFER_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNsaCompressAttentionInferGetWorkspaceSize(
    const aclTensor *query, const aclTensor *key, const aclTensor *value, const aclTensor *attentionMaskOptional,
    const aclTensor *blockTableOptional, const aclIntArray *actualQSeqLenOptional,
    const aclIntArray *actualCmpKvSeqLenOptional, const aclIntArray *actualSelKvSeqLenOptional,
    const aclTensor *topKMaskOptional, int64_t numHeads, int64_t numKeyValueHeads, int64_t selectBlockSize,
    int64_t selectBlockCount, int64_t compressBlockSize, int64_t compressBlockStride, double scaleValue,
    char *layoutOptional, int64_t pageBlockSize, int64_t sparseMode, const aclTensor *output,
    const aclTensor *topKOutput, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNsaCompressAttentionInfer(void *workspace, uint64_t workspaceSize,
                                                               aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_ATTENTION_INFER_H_ */
