/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_swi_glu.h: aclnnSwiGlu (Swish-gated linear unit).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SWI_GLU_H_
#define CANOPY_ACLNNOP_ACLNN_SWI_GLU_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor *x, int64_t dim, const aclTensor *out,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSwiGlu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SWI_GLU_H_ */
