/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_fill_diagonal.h: selfRef's main diagonal (wrapping down a tall matrix if asked) set to fillValue.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FILL_DIAGONAL_H_
#define CANOPY_ACLNNOP_ACLNN_FILL_DIAGONAL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceFillDiagonalGetWorkspaceSize(aclTensor *selfRef, const aclScalar *fillValue,
                                                                         bool wrap, uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceFillDiagonal(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FILL_DIAGONAL_H_ */
