/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_add_lora.h: batched LoRA update, out = y with, for each row b of x whose adapter
 * i = indices[b] is one of weightB's, scale * (x[b] . weightA[i, layerIdx]^T) . weightB[i, layerIdx]^T
 * added to columns yOffset .. yOffset + H2 - 1 (without weightA, x[b] itself is the low-rank input).
 * A2 dtypes: y, x, weightB, weightAOptional, out FLOAT16; indices INT32.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADD_LORA_H_
#define CANOPY_ACLNNOP_ACLNN_ADD_LORA_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddLoraGetWorkspaceSize(const aclTensor *y, const aclTensor *x,
                                                             const aclTensor *weightB, const aclTensor *indices,
                                                             const aclTensor *weightAOptional, int64_t layerIdx,
                                                             double scale, int64_t yOffset, int64_t ySliceSize,
                                                             const aclTensor *out, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddLora(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADD_LORA_H_ */
