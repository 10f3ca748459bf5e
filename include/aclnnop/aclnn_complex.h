/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_complex.h: out = real + imag * j with real and imag broadcast together (torch.complex).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_COMPLEX_H_
#define CANOPY_ACLNNOP_ACLNN_COMPLEX_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnComplexGetWorkspaceSize(const aclTensor *real, const aclTensor *imag,
                                                             aclTensor *out, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnComplex(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_COMPLEX_H_ */
