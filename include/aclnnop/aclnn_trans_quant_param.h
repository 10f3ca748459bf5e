/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_trans_quant_param.h: float quantisation scales (and offsets)
 * packed on the host into the 64-bit words the quantised matmuls take as a
 * UINT64 scale; the words are those of aclnnTransQuantParamV2.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_H_
#define CANOPY_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* scaleArray: scaleSize (>= 1) floats; offsetArray: null with offsetSize 0, or
 * offsetSize (>= 1) floats. *quantParam receives memory from calloc, which the
 * caller frees with free(): max(scaleSize, offsetSize) words rounded up to a
 * multiple of 16 (unless it is 1), *quantParamSize their count. Word i holds
 * scale i's full f32 bits and bit 46 (i < scaleSize) and offset i rounded half
 * away from zero, clamped to [-256, 255], in bits 37-45 (i < offsetSize); the
 * rest are 0. Problems with the arrays are ACLNN_ERR_PARAM_INVALID (a null
 * scaleArray too, as CANN's implementation returns), null outputs
 * ACLNN_ERR_PARAM_NULLPTR. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransQuantParam(const float *scaleArray, uint64_t scaleSize,
                                                     const float *offsetArray, uint64_t offsetSize,
                                                     uint64_t **quantParam, uint64_t *quantParamSize);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_H_ */
