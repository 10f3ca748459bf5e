/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_dynamic_block_quant.h: aclnnDynamicBlockQuant
 * (block-wise dynamic quantisation; Atlas A2: x FLOAT16 / BFLOAT16 to INT8,
 * one FLOAT scale per 1 x 128 block).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DYNAMIC_BLOCK_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_DYNAMIC_BLOCK_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDynamicBlockQuantGetWorkspaceSize(const aclTensor *x, double minScale,
                                                                       char *roundModeOptional, int64_t dstType,
                                                                       int64_t rowBlockSize, int64_t colBlockSize,
                                                                       const aclTensor *yOut, const aclTensor *scaleOut,
                                                                       uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDynamicBlockQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DYNAMIC_BLOCK_QUANT_H_ */
