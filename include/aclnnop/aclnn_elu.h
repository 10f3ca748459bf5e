/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_elu.h: aclnnElu and aclnnInplaceElu.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ELU_H_
#define CANOPY_ACLNNOP_ACLNN_ELU_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor *self, const aclScalar *alpha,
                                                         const aclScalar *scale, const aclScalar *inputScale,
                                                         aclTensor *out, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnElu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor *selfRef, const aclScalar *alpha,
                                                                const aclScalar *scale, const aclScalar *inputScale,
                                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceElu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ELU_H_ */
