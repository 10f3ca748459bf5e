/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_add_rms_norm_cast.h: aclnnAddRmsNormCast.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_CAST_H_
#define CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_CAST_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRmsNormCastGetWorkspaceSize(const aclTensor *x1, const aclTensor *x2,
                                                                    const aclTensor *gamma, double epsilon,
                                                                    const aclTensor *y1Out, const aclTensor *y2Out,
                                                                    const aclTensor *rstdOut, const aclTensor *xOut,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRmsNormCast(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADD_RMS_NORM_CAST_H_ */
