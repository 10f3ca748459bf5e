/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_matmul.h: matrix product of 1-D to 6-D tensors with batch broadcast.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MATMUL_H_
#define CANOPY_ACLNNOP_ACLNN_MATMUL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cubeMathType: 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16,
 * 3 USE_HF32, 4 USE_FP32_ADD. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
                                                            aclTensor *out, int8_t cubeMathType,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMatmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

/* Variant taking mat2 in the FRACTAL_NZ weight layout. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMatmulWeightNzGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
                                                                    aclTensor *out, int8_t cubeMathType,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMatmulWeightNz(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MATMUL_H_ */
