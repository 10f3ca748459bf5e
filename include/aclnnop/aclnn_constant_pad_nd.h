/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_constant_pad_nd.h: self padded (or cropped, by negative pads) with a constant value, last dimension
 * first. Every operator has two phases: aclnnXxxGetWorkspaceSize validates the arguments and builds an executor,
 * aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_
#define CANOPY_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor *self, const aclIntArray *pad,
                                                                   const aclScalar *value, aclTensor *out,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnConstantPadNd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_ */
