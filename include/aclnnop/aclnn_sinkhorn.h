/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_sinkhorn.h: Sinkhorn optimal-transport normalisation of exp(cost), [R, C] with
 * C <= 4096, iterated until the column scaling changes by at most tol (0.0001 when tol is
 * null); used for MoE expert routing. Atlas A2: cost and p FLOAT, FLOAT16, BFLOAT16; tol FLOAT.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SINKHORN_H_
#define CANOPY_ACLNNOP_ACLNN_SINKHORN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSinkhornGetWorkspaceSize(const aclTensor *cost, const aclScalar *tol, aclTensor *p,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSinkhorn(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SINKHORN_H_ */
