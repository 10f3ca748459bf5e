/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_nsa_compress.h: aclnnNsaCompress (NSA's key/value compression:
 * each window of compressBlockSize tokens, every compressStride tokens of a
 * sequence, becomes one token, the window's rows weighted per head and summed).
 * Atlas A2 dtypes: FLOAT16, BFLOAT16 (input, weight and output alike).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_H_
#define CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNsaCompressGetWorkspaceSize(const aclTensor *input, const aclTensor *weight,
                                                                 const aclIntArray *actSeqLenOptional,
                                                                 char *layoutOptional, int64_t compressBlockSize,
                                                                 int64_t compressStride, int64_t actSeqLenType,
                                                                 aclTensor *output, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNsaCompress(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NSA_COMPRESS_H_ */
