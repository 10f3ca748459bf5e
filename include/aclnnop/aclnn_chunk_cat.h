/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_chunk_cat.h: each tensor of a list split along dim 0 into numChunks chunks (the last zero-
 * padded), and chunk i of every tensor concatenated into row i of out (torch._chunk_cat).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CHUNK_CAT_H_
#define CANOPY_ACLNNOP_ACLNN_CHUNK_CAT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnChunkCatGetWorkspaceSize(const aclTensorList *tensors, int64_t dim,
                                                              int64_t numChunks, aclTensor *out,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnChunkCat(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CHUNK_CAT_H_ */
