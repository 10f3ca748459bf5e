/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_sign_bits_unpack.h: bytes of packed signs unpacked eight each, least significant bit first, to
 * +1 and -1 as [size, 8 * bytes / size] of dtype (1-bit Adam).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SIGN_BITS_UNPACK_H_
#define CANOPY_ACLNNOP_ACLNN_SIGN_BITS_UNPACK_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSignBitsUnpackGetWorkspaceSize(const aclTensor *self, int64_t size,
                                                                    aclDataType dtype, aclTensor *out,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSignBitsUnpack(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SIGN_BITS_UNPACK_H_ */
