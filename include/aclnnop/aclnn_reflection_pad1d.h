/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_reflection_pad1d.h: the last dimension of self padded by reflection at both ends.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_REFLECTION_PAD1D_H_
#define CANOPY_ACLNNOP_ACLNN_REFLECTION_PAD1D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnReflectionPad1dGetWorkspaceSize(const aclTensor *self, const aclIntArray *padding,
                                                                     aclTensor *out, uint64_t *workspaceSize,
                                                                     aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnReflectionPad1d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_REFLECTION_PAD1D_H_ */
