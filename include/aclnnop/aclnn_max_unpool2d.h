/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_max_unpool2d.h: torch.nn.functional.max_unpool2d: out zero but at the positions a max pool's
 * indices name in each output plane, which take self's values.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MAX_UNPOOL2D_H_
#define CANOPY_ACLNNOP_ACLNN_MAX_UNPOOL2D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxUnpool2dGetWorkspaceSize(const aclTensor *self, const aclTensor *indices,
                                                                 const aclIntArray *outputSize, aclTensor *out,
                                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxUnpool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MAX_UNPOOL2D_H_ */
