/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_inplace_quant_matmul_all_reduce_add_rms_norm.h: aclnnInplaceQuantMatmulAllReduceAddRmsNorm,
 * aclnnQuantMatmulAllReduceAddRmsNorm with y written over residual.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_INPLACE_QUANT_MATMUL_ALL_REDUCE_ADD_RMS_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_INPLACE_QUANT_MATMUL_ALL_REDUCE_ADD_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "hccl/hccl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceQuantMatmulAllReduceAddRmsNormGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *bias, const aclTensor *dequantScale,
    const aclTensor *residual, const aclTensor *gamma, double epsilon, const char *group, const char *reduceOp,
    int64_t commTurn, int64_t streamMode, const aclTensor *normOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceQuantMatmulAllReduceAddRmsNorm(void *workspace, uint64_t workspaceSize,
                                                                           aclOpExecutor *executor,
                                                                           const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_INPLACE_QUANT_MATMUL_ALL_REDUCE_ADD_RMS_NORM_H_ */
