/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_expand_into_jagged_permute.h: a table-level permutation expanded to the batch level (fbgemm's
 * expand_into_jagged_permute): each table's output segment filled with the consecutive input positions of the
 * table permute names.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_EXPAND_INTO_JAGGED_PERMUTE_H_
#define CANOPY_ACLNNOP_ACLNN_EXPAND_INTO_JAGGED_PERMUTE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnExpandIntoJaggedPermuteGetWorkspaceSize(
    const aclTensor *permute, const aclTensor *inputOffset, const aclTensor *outputOffset, int64_t outputSize,
    const aclTensor *outputPermuteOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnExpandIntoJaggedPermute(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_EXPAND_INTO_JAGGED_PERMUTE_H_ */
