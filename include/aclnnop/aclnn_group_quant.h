/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_group_quant.h: aclnnGroupQuant
 * (static quantisation to INT8 / INT4 with one scale row per group of rows).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUP_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_GROUP_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupQuantGetWorkspaceSize(const aclTensor *x, const aclTensor *scale,
                                                                const aclTensor *groupIndex,
                                                                const aclTensor *offsetOptional, int32_t dstType,
                                                                aclTensor *y, uint64_t *workspaceSize,
                                                                aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUP_QUANT_H_ */
