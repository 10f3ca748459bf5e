/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_upsample_nearest_1d_v2.h: nearest-neighbour upsampling of the last dim of an NCL tensor, with a given
 * scale. Every operator has two phases: aclnnXxxGetWorkspaceSize validates the arguments and builds an executor,
 * aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_V2_H_
#define CANOPY_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnUpsampleNearest1dV2GetWorkspaceSize(const aclTensor *self,
                                                                         const aclIntArray *outputSize, float scaleL,
                                                                         aclTensor *out, uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnUpsampleNearest1dV2(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_V2_H_ */
