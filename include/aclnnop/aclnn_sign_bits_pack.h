/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_sign_bits_pack.h: the signs of a 1-D float tensor packed eight to a byte, least significant bit
 * first (1 for >= 0), as [size, bytes / size] (1-bit Adam).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SIGN_BITS_PACK_H_
#define CANOPY_ACLNNOP_ACLNN_SIGN_BITS_PACK_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSignBitsPackGetWorkspaceSize(const aclTensor *self, int64_t size, aclTensor *out,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSignBitsPack(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SIGN_BITS_PACK_H_ */
