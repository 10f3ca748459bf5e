/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_convert_weight_to_int4_pack.h: packs a quantised weight that
 * holds one 4-bit value per INT32 (or FLOAT) element into dense 4-bit values,
 * two a byte, the even element in the low nibble.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CONVERT_WEIGHT_TO_INT4_PACK_H_
#define CANOPY_ACLNNOP_ACLNN_CONVERT_WEIGHT_TO_INT4_PACK_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* weight: INT32 (values in [-8, 7]) or FLOAT (FLOAT4_E2M1 values), ND, 2-3 dims.
 * weightInt4Pack: INT4 / FLOAT4_E2M1 of weight's shape, or INT32 / FLOAT with
 * the last dim divided by 8; ND or FRACTAL_NZ. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvertWeightToINT4PackGetWorkspaceSize(const aclTensor *weight,
                                                                             aclTensor *weightInt4Pack,
                                                                             uint64_t *workspaceSize,
                                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvertWeightToINT4Pack(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CONVERT_WEIGHT_TO_INT4_PACK_H_ */
