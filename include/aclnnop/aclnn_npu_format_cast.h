/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_npu_format_cast.h: aclnnNpuFormatCast, converting a tensor
 * between a plain layout and a private NPU layout, and
 * aclnnNpuFormatCastCalculateSizeAndFormat, the storage shape and format the
 * converted tensor needs (create dstTensor with it, then run the two phases).
 *
 * The pairs are those CANN runs on Atlas A2 (either direction): ND, NCL, NCHW,
 * NCDHW <-> FRACTAL_NZ; NCHW, NHWC <-> NC1HWC0; NCDHW, NDHWC <-> NDC1HWC0;
 * NCHW, HWCN <-> FRACTAL_Z; NCDHW, DHWCN <-> FRACTAL_Z_3D. dtypes: INT8, UINT8,
 * INT32, UINT32, FLOAT, FLOAT16, BFLOAT16; both tensors contiguous.
 *
 * On Canopy a FRACTAL_NZ tensor holds its elements in the row-major order of
 * its view (the layout Canopy's TransMatmulWeight leaves and its matmuls read,
 * see aclnn_trans_matmul_weight.h) inside a buffer of CANN's padded NZ size;
 * the other private layouts are stored as on the NPU, padding zeroed.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_NPU_FORMAT_CAST_H_
#define CANOPY_ACLNNOP_ACLNN_NPU_FORMAT_CAST_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *dstShape receives an array from new[] (the caller frees it with delete[]) of
 * *dstShapeSize storage dimensions; additionalDtype -1 means srcTensor's dtype
 * (it sets C0 = 32 bytes / its size). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnNpuFormatCastCalculateSizeAndFormat(const aclTensor *srcTensor,
                                                                         const int dstFormat, const int additionalDtype,
                                                                         int64_t **dstShape, uint64_t *dstShapeSize,
                                                                         int *actualFormat);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNpuFormatCastGetWorkspaceSize(const aclTensor *srcTensor, aclTensor *dstTensor,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNpuFormatCast(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_NPU_FORMAT_CAST_H_ */
