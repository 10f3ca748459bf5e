/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_linalg_vector_norm.h: aclnnLinalgVectorNorm.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLinalgVectorNormGetWorkspaceSize(const aclTensor *self, const aclScalar *ord,
                                                                      const aclIntArray *dims, bool keepDims,
                                                                      const aclDataType dtype, aclTensor *out,
                                                                      uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLinalgVectorNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H_ */
