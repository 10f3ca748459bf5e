/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_var.h: aclnnVar and aclnnVarCorrection, the variance over a list of dimensions.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_VAR_H_
#define CANOPY_ACLNNOP_ACLNN_VAR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = the variance of self over dim (null or an empty list: every dimension; negative dims count
 * from the end), divided by N - 1 when unbiased, else by N; keepdim keeps the reduced dimensions with
 * extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnVarGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool unbiased,
                                                         bool keepdim, aclTensor *out, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnVar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

/* out = the variance of self over dim as aclnnVar, divided by max(N - correction, 0). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnVarCorrectionGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim,
                                                                   int64_t correction, bool keepdim, aclTensor *out,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnVarCorrection(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_VAR_H_ */
