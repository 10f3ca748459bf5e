/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_reflection_pad3d.h: the last three dimensions padded by mirroring about their edge elements.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_REFLECTION_PAD3D_H_
#define CANOPY_ACLNNOP_ACLNN_REFLECTION_PAD3D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnReflectionPad3dGetWorkspaceSize(const aclTensor *self, const aclIntArray *padding,
                                                                     aclTensor *out, uint64_t *workspaceSize,
                                                                     aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnReflectionPad3d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_REFLECTION_PAD3D_H_ */
