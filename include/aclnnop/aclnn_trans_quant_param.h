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
 * offsetSize (>= 1) floats. *quantParam receives max(scaleSize, offsetSize)
 * words in memory from malloc, which the caller frees with free();
 * *quantParamSize their count. A length of 1 broadcasts against the other;
 * two other unequal lengths are ACLNN_ERR_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransQuantParam(const float *scaleArray, uint64_t scaleSize,
                                                     const float *offsetArray, uint64_t offsetSize,
                                                     uint64_t **quantParam, uint64_t *quantParamSize);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_H_ */
