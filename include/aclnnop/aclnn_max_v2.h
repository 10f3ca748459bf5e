/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_max_v2.h: ONNX ReduceMax: out (self's dtype) = the maximum of self over dims; an empty dims is
 * every dimension, or with noopWithEmptyDims a copy of self.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MAX_V2_H_
#define CANOPY_ACLNNOP_ACLNN_MAX_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxV2GetWorkspaceSize(const aclTensor *self, const aclIntArray *dims,
                                                           bool keepDims, bool noopWithEmptyDims, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MAX_V2_H_ */
