/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_hans_encode.h: aclnnHansEncode, lossless compression of an
 * fp16 / bf16 / f32 tensor: each element's most significant byte (sign and
 * high exponent bits) is coded by its rank in a histogram of those bytes
 * (pdfRef, counted first when `statistic`), its low bytes are kept unchanged in
 * mantissaOut; fixedOut receives a header and the coded stream, varOut the
 * bytes that did not fit. aclnnHansDecode (aclnn_hans_decode.h) inverts it.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_HANS_ENCODE_H_
#define CANOPY_ACLNNOP_ACLNN_HANS_ENCODE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* inputTensor FLOAT16, BFLOAT16 or FLOAT (n elements, a multiple of 64 and at
 * least 32768); pdfRef INT32, 256 elements; mantissaOut, fixedOut and varOut of
 * inputTensor's dtype: mantissaOut exactly n * (element bytes - 1) bytes,
 * fixedOut at least 512 bytes, fixedOut + varOut at least n + n / 64 + 8448 per
 * core + 512 bytes (fixedOut alone with reshuff). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnHansEncodeGetWorkspaceSize(const aclTensor *inputTensor, aclTensor *pdfRef,
                                                                bool statistic, bool reshuff,
                                                                const aclTensor *mantissaOut, const aclTensor *fixedOut,
                                                                const aclTensor *varOut, uint64_t *workspaceSize,
                                                                aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnHansEncode(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_HANS_ENCODE_H_ */
