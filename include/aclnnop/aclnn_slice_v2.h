/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_slice_v2.h: self sliced along several axes at once (starts, ends, steps per axis).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SLICE_V2_H_
#define CANOPY_ACLNNOP_ACLNN_SLICE_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSliceV2GetWorkspaceSize(const aclTensor *self, const aclIntArray *starts,
                                                             const aclIntArray *ends, const aclIntArray *axes,
                                                             const aclIntArray *steps, aclTensor *out,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSliceV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SLICE_V2_H_ */
