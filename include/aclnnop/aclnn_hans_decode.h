/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_hans_decode.h: aclnnHansDecode, the inverse of
 * aclnnHansEncode (aclnn_hans_encode.h): out receives the tensor whose
 * mantissa, fixed and var streams the encoder wrote with the same pdf and
 * reshuff.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_HANS_DECODE_H_
#define CANOPY_ACLNNOP_ACLNN_HANS_DECODE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mantissa, fixed, var and out FLOAT16, BFLOAT16 or FLOAT (out's dtype; the
 * encoder's buffers, fixed of the size it had); pdf INT32, 256 elements. A
 * stream that does not describe out's elements fails the run. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnHansDecodeGetWorkspaceSize(const aclTensor *mantissa, const aclTensor *fixed,
                                                                const aclTensor *var, const aclTensor *pdf,
                                                                bool reshuff, const aclTensor *out,
                                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnHansDecode(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_HANS_DECODE_H_ */
