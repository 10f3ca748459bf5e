/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_trans_quant_param_v2.h: a float quantisation scale (and
 * offset) packed into the 64-bit words the quantised matmuls take as a UINT64
 * or INT64 scale.
 *
 * Each word holds the scale's FLOAT32 bits with the low 13 mantissa bits
 * cleared in bits 0-31 and bit 46 set; with an offset, the offset rounded half
 * to even and clamped to [-256, 255] is kept as 9 bits in bits 37-45.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V2_H_
#define CANOPY_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* scale: FLOAT32, ND, [t], [g], [1, n], [g, 1] or [g, n], not empty.
 * offset (optional): FLOAT32, [t] or [1, n], not empty; with it scale is [1],
 * [n] or [1, n] and the two broadcast against each other.
 * out: UINT64 or INT64, scale's shape (1-D scale with an offset: the longer of
 * the two). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransQuantParamV2GetWorkspaceSize(const aclTensor *scale, const aclTensor *offset,
                                                                       const aclTensor *out, uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransQuantParamV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V2_H_ */
