/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_flat_quant_v3.h: aclnnFlatQuantV3
 * (FlatQuantV2 with a group list: how many leading matrices are quantised).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FLAT_QUANT_V3_H_
#define CANOPY_ACLNNOP_ACLNN_FLAT_QUANT_V3_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnFlatQuantV3GetWorkspaceSize(const aclTensor *x, const aclTensor *kroneckerP1,
                                                                 const aclTensor *kroneckerP2,
                                                                 const aclTensor *groupListOptional, double clipRatio,
                                                                 double dstTypeMax, int64_t groupListType,
                                                                 aclTensor *out, aclTensor *quantScale,
                                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFlatQuantV3(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FLAT_QUANT_V3_H_ */
