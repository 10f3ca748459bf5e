/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_amp_update_scale.h: the dynamic loss-scale update of mixed
 * precision training (torch._amp_update_scale_).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_AMP_UPDATE_SCALE_H_
#define CANOPY_ACLNNOP_ACLNN_AMP_UPDATE_SCALE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every tensor holds one element ([1]); updatedScale and updatedGrowthTracker are
 * written (CANN declares them const). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAmpUpdateScaleGetWorkspaceSize(
    const aclTensor *currentScale, const aclTensor *growthTracker, const aclTensor *foundInf, double growthFactor,
    double backoffFactor, int64_t growthInterval, const aclTensor *updatedScale, const aclTensor *updatedGrowthTracker,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAmpUpdateScale(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_AMP_UPDATE_SCALE_H_ */
