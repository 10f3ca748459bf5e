/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_scatter.h: src (or a scalar value) written into self at the positions index gives along dim, replacing,
 * adding or multiplying. Every operator has two phases: aclnnXxxGetWorkspaceSize validates the arguments and builds an
 * executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SCATTER_H_
#define CANOPY_ACLNNOP_ACLNN_SCATTER_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index,
                                                             const aclTensor *src, int64_t reduce, aclTensor *out,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatter(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             const aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterValueGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                                                  const aclTensor *index, const aclScalar *value,
                                                                  int64_t reduce, aclTensor *out,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterValue(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  const aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceScatterGetWorkspaceSize(aclTensor *selfRef, int64_t dim,
                                                                    const aclTensor *index, const aclTensor *src,
                                                                    int64_t reduce, uint64_t *workspaceSize,
                                                                    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceScatter(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceScatterValueGetWorkspaceSize(aclTensor *selfRef, int64_t dim,
                                                                         const aclTensor *index, const aclScalar *value,
                                                                         int64_t reduce, uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceScatterValue(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SCATTER_H_ */
