/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_repeat_interleave.h: every element (or every slice along dim) repeated, consecutively.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_REPEAT_INTERLEAVE_H_
#define CANOPY_ACLNNOP_ACLNN_REPEAT_INTERLEAVE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRepeatInterleaveGetWorkspaceSize(const aclTensor *self, const aclTensor *repeats,
                                                                      int64_t outputSize, aclTensor *out,
                                                                      uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRepeatInterleave(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRepeatInterleaveWithDimGetWorkspaceSize(const aclTensor *self,
                                                                             const aclTensor *repeats, int64_t dim,
                                                                             int64_t outputSize, aclTensor *out,
                                                                             uint64_t *workspaceSize,
                                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRepeatInterleaveWithDim(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRepeatInterleaveIntGetWorkspaceSize(const aclTensor *self, int64_t repeats,
                                                                         int64_t outputSize, aclTensor *out,
                                                                         uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRepeatInterleaveInt(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(const aclTensor *self, int64_t repeats,
                                                                                int64_t dim, int64_t outputSize,
                                                                                aclTensor *out, uint64_t *workspaceSize,
                                                                                aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRepeatInterleaveIntWithDim(void *workspace, uint64_t workspaceSize,
                                                                aclOpExecutor *executor, aclrtStream stream);

/* out (repeats' dtype, [outputSize]) = i repeated repeats[i] times, in order; the counts must sum to outputSize
 * (else the run fails). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnRepeatInterleaveTensorGetWorkspaceSize(const aclTensor *repeats,
                                                                            int64_t outputSize, aclTensor *out,
                                                                            uint64_t *workspaceSize,
                                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRepeatInterleaveTensor(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_REPEAT_INTERLEAVE_H_ */
