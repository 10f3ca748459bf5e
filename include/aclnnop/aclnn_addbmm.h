/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_addbmm.h: out = beta * self + alpha * sum over the batch of batch1[i] @ batch2[i].
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADDBMM_H_
#define CANOPY_ACLNNOP_ACLNN_ADDBMM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cubeMathType: see aclnn_matmul.h. self broadcasts to [M, N]; out is [M, N]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddbmmGetWorkspaceSize(const aclTensor *self, const aclTensor *batch1,
                                                            const aclTensor *batch2, const aclScalar *beta,
                                                            const aclScalar *alpha, aclTensor *out, int8_t cubeMathType,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

/* In-place form; the result is written to selfRef. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddbmmGetWorkspaceSize(aclTensor *selfRef, const aclTensor *batch1,
                                                                   const aclTensor *batch2, const aclScalar *beta,
                                                                   const aclScalar *alpha, int8_t cubeMathType,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddbmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADDBMM_H_ */
