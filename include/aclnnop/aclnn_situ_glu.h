/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_situ_glu.h: a gated unit on x split in two halves along dim: beta * tanh(gate / beta) *
 * sigmoid(gate) times the other half (softly clipped by linearBeta when it is positive).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SITU_GLU_H_
#define CANOPY_ACLNNOP_ACLNN_SITU_GLU_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSituGluGetWorkspaceSize(const aclTensor *x, int64_t dim, double beta,
                                                             double linearBeta, bool activateLeft, const aclTensor *out,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSituGlu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SITU_GLU_H_ */
