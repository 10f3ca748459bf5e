/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_triangular_solve.h: solves A X = self (or A^T X = self) for X,
 * A triangular, over broadcast batch dimensions.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H_
#define CANOPY_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self [..., N, K] and A [..., N, N] (batch dimensions broadcast); xOut
 * [batch, N, K] receives X and mOut [batch, N, N] the triangle of A that took
 * part. upper: A is upper (else lower) triangular; transpose: solve with A^T;
 * unitriangular: A's diagonal is taken as 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnTriangularSolveGetWorkspaceSize(const aclTensor *self, const aclTensor *A,
                                                                     bool upper, bool transpose, bool unitriangular,
                                                                     aclTensor *xOut, aclTensor *mOut,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTriangularSolve(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H_ */
