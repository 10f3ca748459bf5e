/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_strided_slice_assign_v2.h: varRef[begin:end:strides] = inputValue along the listed axes, in
 * place.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_STRIDED_SLICE_ASSIGN_V2_H_
#define CANOPY_ACLNNOP_ACLNN_STRIDED_SLICE_ASSIGN_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnStridedSliceAssignV2GetWorkspaceSize(
    aclTensor *varRef, const aclTensor *inputValue, const aclIntArray *begin, const aclIntArray *end,
    const aclIntArray *strides, const aclIntArray *axesOptional, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnStridedSliceAssignV2(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_STRIDED_SLICE_ASSIGN_V2_H_ */
