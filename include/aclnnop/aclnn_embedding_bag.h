/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_embedding_bag.h: sums, means or maxima of bags of weight's rows picked by indices, bag b running
 * from offsets[b] to offsets[b + 1] (torch.nn.functional.embedding_bag).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_EMBEDDING_BAG_H_
#define CANOPY_ACLNNOP_ACLNN_EMBEDDING_BAG_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnEmbeddingBagGetWorkspaceSize(
    const aclTensor *weight, const aclTensor *indices, const aclTensor *offsets, bool scaleGradByFreq, int64_t mode,
    bool sparse, const aclTensor *perSampleWeights, bool includeLastOffset, int64_t paddingIdx, aclTensor *output,
    aclTensor *offset2bag, aclTensor *bagSize, aclTensor *maxIndices, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnEmbeddingBag(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_EMBEDDING_BAG_H_ */
