/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_ascend_quant.h: aclnnAscendQuant
 * (static affine quantisation along the last dim to INT8 / INT4).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ASCEND_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_ASCEND_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAscendQuantGetWorkspaceSize(const aclTensor *x, const aclTensor *scale,
                                                                 const aclTensor *offset, bool sqrtMode,
                                                                 const char *roundMode, int32_t dstType,
                                                                 const aclTensor *y, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAscendQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ASCEND_QUANT_H_ */
