/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_trans_matmul_weight.h: preparing a matmul weight in the layout
 * the matmul kernels read fastest (ACL_FORMAT_FRACTAL_NZ), and the size such a
 * weight needs.
 *
 * On Canopy the FRACTAL_NZ layout of a matmul weight is its ND (row-major)
 * layout, the layout its matmul kernels stream directly: TransMatmulWeight
 * checks the weight and leaves its bytes as they are, and Mm, BatchMatMul,
 * Matmul and WeightQuantBatchMatmulV2 read a FRACTAL_NZ weight through its
 * view's shape and strides. A weight prepared this way gives the products of
 * the ND weight, and buffers sized by CalculateMatmulWeightSize(V2) (CANN's
 * padded NZ sizes) hold it.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H_
#define CANOPY_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Elements a weight of tensorShape ([batch..., n, k], 2-6 dims, no zeros) of
 * dataType (FLOAT16, BFLOAT16, INT8) takes once prepared: n padded to 16, k to
 * 16 (FLOAT16, BFLOAT16) or 32 (INT8). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray *tensorShape, aclDataType dataType,
                                                                 uint64_t *weightTensorSize);
/* The same for a FLOAT16 weight. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray *tensorShape,
                                                               uint64_t *weightTensorSize);
/* mmWeightRef: FLOAT16, BFLOAT16 or INT8, ND, 2-6 dims, not empty; prepared in place. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(aclTensor *mmWeightRef, uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransMatmulWeight(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H_ */
