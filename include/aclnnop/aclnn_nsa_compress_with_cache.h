/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_nsa_compress_with_cache.h: aclnnNsaCompressWithCache (NSA's
 * inference-time compression: each batch whose length has just completed a
 * window has its last compressBlockSize tokens, read from the paged cache,
 * weighted per head, summed and written into outputCache at its slot).
 * Atlas A2 dtypes: FLOAT16, BFLOAT16 (input, weight, outputCache); INT32
 * slotMapping and blockTableOptional; INT64 actSeqLenOptional.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_WITH_CACHE_H_
#define CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_WITH_CACHE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNsaCompressWithCacheGetWorkspaceSize(
    const aclTensor *input, const aclTensor *weight, const aclTensor *slotMapping, const aclIntArray *actSeqLenOptional,
    const aclTensor *blockTableOptional, char *layoutOptional, int64_t compressBlockSize, int64_t compressStride,
    int64_t actSeqLenType, int64_t pageBlockSize, aclTensor *outputCache, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNsaCompressWithCache(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_WITH_CACHE_H_ */
