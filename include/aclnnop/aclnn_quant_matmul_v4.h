/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_quant_matmul_v4.h: aclnnQuantMatmulV4
 * (INT8 x INT8 matmul with dequantisation scales).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_V4_H_
#define CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_V4_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulV4GetWorkspaceSize(const aclTensor *x1, const aclTensor *x2,
                                                                   const aclTensor *scale, const aclTensor *offset,
                                                                   const aclTensor *pertokenScaleOptional,
                                                                   const aclTensor *bias, bool transposeX1,
                                                                   bool transposeX2, const aclTensor *out,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulV4(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_V4_H_ */
