/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_upsample_nearest_2d_v2.h: nearest-neighbour upsampling of H and W of a 4-D tensor, with given scales.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_V2_H_
#define CANOPY_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnUpsampleNearest2dV2GetWorkspaceSize(const aclTensor *self,
                                                                         const aclIntArray *outputSize, float scalesH,
                                                                         float scalesW, aclTensor *out,
                                                                         uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnUpsampleNearest2dV2(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_V2_H_ */
