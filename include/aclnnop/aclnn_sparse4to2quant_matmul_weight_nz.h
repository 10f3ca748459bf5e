/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_sparse4to2quant_matmul_weight_nz.h: an INT8 product whose
 * weight keeps two of every four values along k (4:2 structured sparsity):
 *   out = bf16(float(x @ W^T) * sparseWeightScale * xScale + bias)
 * x [m, k] INT8, W the dense [n, k] INT8 weight that aclnnTransSparse4to2Para
 * compressed on the host into sparseWeight (a [n, ceil(k / 8) * 4] view over
 * [ceil(k / 64), ceil(n / 16), 16, 32] storage) and index (one UINT8 per eight
 * values of k: [ceil(k / 64), ceil(n / 16), 16, 8] storage under a 2-D view).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SPARSE4TO2QUANT_MATMUL_WEIGHT_NZ_H_
#define CANOPY_ACLNNOP_ACLNN_SPARSE4TO2QUANT_MATMUL_WEIGHT_NZ_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Host function, at once: weight is the dense [n, k] INT8 matrix (shape
 * {n, k}, row-major) in host memory, in which every group of four values
 * along k (k padded with zeros to a multiple of 8) holds at most two non-zero
 * values (else ACLNN_ERR_PARAM_INVALID). *sparseWeight and *index receive the
 * compressed weight and its index, *sparseWeightDims / *indexDims their four
 * storage dims (*…DimsNum = 4); all four arrays are allocated with new[] and
 * the caller releases them with delete[] (CANN's example holds them in
 * std::unique_ptr<T[]>). A null pointer argument is ACLNN_ERR_INNER_NULLPTR,
 * as CANN's implementation returns. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransSparse4to2Para(const int8_t *weight, aclIntArray *shape,
                                                         int8_t **sparseWeight, int64_t **sparseWeightDims,
                                                         uint64_t *sparseWeightDimsNum, uint8_t **index,
                                                         int64_t **indexDims, uint64_t *indexDimsNum);

/* x INT8 [m, k] (not transposed); sparseWeight INT8 and index UINT8 as
 * aclnnTransSparse4to2Para made them; xScale FLOAT [m] and sparseWeightScale
 * FLOAT [n] (both required); biasOptional BF16 [n]; out BF16 [m, n]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnSparse4to2QuantMatmulWeightNzGetWorkspaceSize(
    const aclTensor *x, const aclTensor *sparseWeight, const aclTensor *index, const aclTensor *xScale,
    const aclTensor *sparseWeightScale, const aclTensor *biasOptional, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSparse4to2QuantMatmulWeightNz(void *workspace, uint64_t workspaceSize,
                                                                   aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SPARSE4TO2QUANT_MATMUL_WEIGHT_NZ_H_ */
