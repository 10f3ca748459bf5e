/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_batch_matmul.h: 3-D batched matrix product, out[b] = self[b] @ mat2[b].
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BATCH_MATMUL_H_
#define CANOPY_ACLNNOP_ACLNN_BATCH_MATMUL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cubeMathType: see aclnn_matmul.h. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
                                                                 aclTensor *out, int8_t cubeMathType,
                                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchMatMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

/* Variant taking mat2 in the FRACTAL_NZ weight layout. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchMatMulWeightNzGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
                                                                         aclTensor *out, int8_t cubeMathType,
                                                                         uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchMatMulWeightNz(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BATCH_MATMUL_H_ */
