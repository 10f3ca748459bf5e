/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_apply_ftrl.h: aclnnApplyFtrl, one FTRL-proximal step in place.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_APPLY_FTRL_H_
#define CANOPY_ACLNNOP_ACLNN_APPLY_FTRL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TensorFlow's ApplyFtrl: accum' = accum + grad^2; linear += grad - (accum'^-lrPower - accum^-lrPower) / lr * var;
 * var = (clamp(linear, -l1, l1) - linear) / (accum'^-lrPower / lr + 2 l2); accum = accum'. varRef, accumRef,
 * linearRef and grad one shape; lr, l1, l2 and lrPower one element each; all FLOAT, FLOAT16 or BFLOAT16, var's
 * dtype (Atlas A2). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyFtrlGetWorkspaceSize(aclTensor *varRef, aclTensor *accumRef,
                                                               aclTensor *linearRef, const aclTensor *grad,
                                                               const aclTensor *lr, const aclTensor *l1,
                                                               const aclTensor *l2, const aclTensor *lrPower,
                                                               bool useLocking, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyFtrl(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_APPLY_FTRL_H_ */
