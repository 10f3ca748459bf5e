/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_diag_flat.h: self flattened and written on a diagonal of a zero
 * matrix. Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DIAG_FLAT_H_
#define CANOPY_ACLNNOP_ACLNN_DIAG_FLAT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDiagFlatGetWorkspaceSize(const aclTensor *self, int64_t diagonal, aclTensor *out,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDiagFlat(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DIAG_FLAT_H_ */
