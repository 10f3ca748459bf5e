/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_gru.h: a multi-layer, optionally bidirectional GRU over a whole sequence (PyTorch's weight layout,
 * gates r, z, n, the reset gate scaling the hidden part of n), with the per-step gates and states for the backward
 * pass when train is true. Packed input (batchSizes) is rejected, as CANN does for now.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GRU_H_
#define CANOPY_ACLNNOP_ACLNN_GRU_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGRUGetWorkspaceSize(const aclTensor *input, const aclTensorList *params,
                                                         const aclTensor *hx, const aclTensor *batchSizes, bool hasBias,
                                                         int64_t numLayers, double dropout, bool train,
                                                         bool bidirection, bool batchFirst, aclTensor *output,
                                                         aclTensor *hy, aclTensorList *rOut, aclTensorList *zOut,
                                                         aclTensorList *nOut, aclTensorList *hnOut, aclTensorList *hOut,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGRU(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GRU_H_ */
