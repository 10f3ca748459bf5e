/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_scatter_reduce.h: torch.scatter_reduce: src's elements reduced into self at index along dim (0
 * none, 1 sum, 2 prod, 3 amax, 4 amin, 5 mean); Atlas A2 takes FLOAT, sum and includeSelf only.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SCATTER_REDUCE_H_
#define CANOPY_ACLNNOP_ACLNN_SCATTER_REDUCE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterReduceGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                                                   const aclTensor *index, const aclTensor *src,
                                                                   int64_t reduce, bool includeSelf, aclTensor *out,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterReduce(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceScatterReduceGetWorkspaceSize(aclTensor *selfRef, int64_t dim,
                                                                          const aclTensor *index, const aclTensor *src,
                                                                          int64_t reduce, bool includeSelf,
                                                                          uint64_t *workspaceSize,
                                                                          aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceScatterReduce(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SCATTER_REDUCE_H_ */
