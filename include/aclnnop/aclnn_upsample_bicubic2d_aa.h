/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_upsample_bicubic2d_aa.h: bicubic resampling of NCHW input to outputSize with an antialiasing
 * filter when downsampling (torch.nn.functional.interpolate, antialias=True).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_UPSAMPLE_BICUBIC2D_AA_H_
#define CANOPY_ACLNNOP_ACLNN_UPSAMPLE_BICUBIC2D_AA_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnUpsampleBicubic2dAAGetWorkspaceSize(
    const aclTensor *input, const aclIntArray *outputSize, bool alignCorners, double scalesH, double scalesW,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnUpsampleBicubic2dAA(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_UPSAMPLE_BICUBIC2D_AA_H_ */
