/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_scatter_nd.h: out = data, then out[indices[b..., 0], ..., indices[b..., c - 1], :] = updates[b..., :]
 * (ONNX ScatterND without reduction), c = indices.shape[-1].
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SCATTER_ND_H_
#define CANOPY_ACLNNOP_ACLNN_SCATTER_ND_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterNdGetWorkspaceSize(const aclTensor *data, const aclTensor *indices,
                                                               const aclTensor *updates, aclTensor *out,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterNd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SCATTER_ND_H_ */
