/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_put.h: selfRef.flatten()[index[i]] = source[i] (or += with accumulate) in place
 * (torch.Tensor.put_).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_PUT_H_
#define CANOPY_ACLNNOP_ACLNN_PUT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePutGetWorkspaceSize(aclTensor *selfRef, const aclTensor *index,
                                                                const aclTensor *source, bool accumulate,
                                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePut(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_PUT_H_ */
