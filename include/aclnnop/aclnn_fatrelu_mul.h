/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_fatrelu_mul.h: aclnnFatreluMul.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FATRELU_MUL_H_
#define CANOPY_ACLNNOP_ACLNN_FATRELU_MUL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnFatreluMulGetWorkspaceSize(const aclTensor *input, const aclTensor *threshold,
                                                                const aclTensor *out, uint64_t *workspaceSize,
                                                                aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFatreluMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FATRELU_MUL_H_ */
