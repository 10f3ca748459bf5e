/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_ffn_v2.h: aclnnFFNV2, aclnnFFN with tokensIndexFlag (expertTokens
 * holding cumulative row ends instead of counts).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FFN_V2_H_
#define CANOPY_ACLNNOP_ACLNN_FFN_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnFFNV2GetWorkspaceSize(
    const aclTensor *x, const aclTensor *weight1, const aclTensor *weight2, const aclIntArray *expertTokens,
    const aclTensor *bias1, const aclTensor *bias2, const aclTensor *scale, const aclTensor *offset,
    const aclTensor *deqScale1, const aclTensor *deqScale2, const aclTensor *antiquantScale1,
    const aclTensor *antiquantScale2, const aclTensor *antiquantOffset1, const aclTensor *antiquantOffset2,
    const char *activation, int64_t innerPrecise, bool tokensIndexFlag, const aclTensor *y, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFFNV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FFN_V2_H_ */
