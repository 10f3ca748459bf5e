/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_one_hot.h: one-hot encoding of an index tensor, onValue where
 * the index equals the class and offValue elsewhere.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ONE_HOT_H_
#define CANOPY_ACLNNOP_ACLNN_ONE_HOT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self: INT32 / INT64 indices; onValue and offValue: out's dtype, only their first element is used.
 * out: self's shape with numClasses inserted at axis (-1: last). Indices outside [0, numClasses)
 * give a row of offValue. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor *self, int numClasses,
                                                            const aclTensor *onValue, const aclTensor *offValue,
                                                            int64_t axis, aclTensor *out, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnOneHot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ONE_HOT_H_ */
