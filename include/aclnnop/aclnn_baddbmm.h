/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_baddbmm.h: out = beta * self + alpha * (batch1 @ batch2), batch by batch.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BADDBMM_H_
#define CANOPY_ACLNNOP_ACLNN_BADDBMM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cubeMathType: see aclnn_matmul.h. self broadcasts to [B, M, N]; out is [B, M, N]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor *self, const aclTensor *batch1,
                                                             const aclTensor *batch2, const aclScalar *beta,
                                                             const aclScalar *alpha, aclTensor *out,
                                                             int8_t cubeMathType, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBaddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

/* In-place form; the result is written to selfRef (declared const by CANN). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBaddbmmGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *batch1,
                                                                    const aclTensor *batch2, const aclScalar *beta,
                                                                    const aclScalar *alpha, int8_t cubeMathType,
                                                                    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceBaddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BADDBMM_H_ */
