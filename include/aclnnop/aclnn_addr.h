/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_addr.h: out = beta * self + alpha * outer(vec1, vec2), and the
 * in-place form that writes selfRef.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADDR_H_
#define CANOPY_ACLNNOP_ACLNN_ADDR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* vec1 [n] and vec2 [m] are vectors; self (at most 2-D) broadcasts to [n, m], the shape of out.
 * betaOptional and alphaOptional default to 1; a zero beta ignores self. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddrGetWorkspaceSize(const aclTensor *self, const aclTensor *vec1,
                                                          const aclTensor *vec2, const aclScalar *betaOptional,
                                                          const aclScalar *alphaOptional, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddr(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          const aclrtStream stream);

/* selfRef is 2-D with the shape [n, m]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddrGetWorkspaceSize(aclTensor *selfRef, const aclTensor *vec1,
                                                                 const aclTensor *vec2, const aclScalar *betaOptional,
                                                                 const aclScalar *alphaOptional,
                                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddr(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADDR_H_ */
