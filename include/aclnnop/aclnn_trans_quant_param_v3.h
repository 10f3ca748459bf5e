/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_trans_quant_param_v3.h: TransQuantParamV2 with roundMode: 1 rounds the FLOAT32 scale to nearest
 * even at its 19 kept bits instead of truncating.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V3_H_
#define CANOPY_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V3_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnTransQuantParamV3GetWorkspaceSize(const aclTensor *scale, const aclTensor *offset,
                                                                       int64_t roundMode, const aclTensor *out,
                                                                       uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransQuantParamV3(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TRANS_QUANT_PARAM_V3_H_ */
