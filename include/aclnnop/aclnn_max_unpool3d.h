/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_max_unpool3d.h: torch.nn.functional.max_unpool3d: out zero but at the positions a max pool's
 * indices name in each output volume, which take self's values (stride and padding are checked, not used).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MAX_UNPOOL3D_H_
#define CANOPY_ACLNNOP_ACLNN_MAX_UNPOOL3D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxUnpool3dGetWorkspaceSize(const aclTensor *self, const aclTensor *indices,
                                                                 const aclIntArray *outputSize,
                                                                 const aclIntArray *stride, const aclIntArray *padding,
                                                                 aclTensor *outRef, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxUnpool3d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MAX_UNPOOL3D_H_ */
