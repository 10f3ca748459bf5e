/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_ascend_anti_quant.h: aclnnAscendAntiQuant
 * (dequantisation of INT8 / INT4 to f16 / bf16).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ASCEND_ANTI_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_ASCEND_ANTI_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAscendAntiQuantGetWorkspaceSize(const aclTensor *x, const aclTensor *scale,
                                                                     const aclTensor *offset, int64_t dstType,
                                                                     bool sqrtMode, const aclTensor *y,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAscendAntiQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ASCEND_ANTI_QUANT_H_ */
