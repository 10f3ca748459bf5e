/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_gather_nd.h: out[b..., :] = self[indices[b..., 0], ..., indices[b..., c - 1], :]
 * (ONNX / TensorFlow GatherND), c = indices.shape[-1].
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GATHER_ND_H_
#define CANOPY_ACLNNOP_ACLNN_GATHER_ND_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGatherNdGetWorkspaceSize(const aclTensor *self, const aclTensor *indices,
                                                              bool negativeIndexSupport, aclTensor *out,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGatherNd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GATHER_ND_H_ */
