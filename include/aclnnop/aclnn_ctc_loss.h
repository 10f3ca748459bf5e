/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_ctc_loss.h: the connectionist temporal classification loss of log-probabilities against target
 * sequences, with the forward variables log alpha (torch.nn.functional.ctc_loss, reduction none).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CTC_LOSS_H_
#define CANOPY_ACLNNOP_ACLNN_CTC_LOSS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnCtcLossGetWorkspaceSize(const aclTensor *logProbs, const aclTensor *targets,
                                                             const aclIntArray *inputLengths,
                                                             const aclIntArray *targetLengths, int64_t blank,
                                                             bool zeroInfinity, aclTensor *negLogLikelihoodOut,
                                                             aclTensor *logAlphaOut, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCtcLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CTC_LOSS_H_ */
