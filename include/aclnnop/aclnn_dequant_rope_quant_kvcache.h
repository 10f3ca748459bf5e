/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_dequant_rope_quant_kvcache.h: aclnnDequantRopeQuantKvcache.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 * The string arguments are const char* so that the string literals CANN's
 * example passes compile in C++ (a char* argument still converts).
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DEQUANT_ROPE_QUANT_KVCACHE_H_
#define CANOPY_ACLNNOP_ACLNN_DEQUANT_ROPE_QUANT_KVCACHE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDequantRopeQuantKvcacheGetWorkspaceSize(
    const aclTensor *x, const aclTensor *cos, const aclTensor *sin, aclTensor *kCacheRef, aclTensor *vCacheRef,
    const aclTensor *indices, const aclTensor *scaleK, const aclTensor *scaleV, const aclTensor *offsetKOptional,
    const aclTensor *offsetVOptional, const aclTensor *weightScaleOptional, const aclTensor *activationScaleOptional,
    const aclTensor *biasOptional, const aclIntArray *sizeSplits, const char *quantModeOptional,
    const char *layoutOptional, bool kvOutput, const char *cacheModeOptional, const aclTensor *qOut,
    const aclTensor *kOut, const aclTensor *vOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDequantRopeQuantKvcache(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DEQUANT_ROPE_QUANT_KVCACHE_H_ */
