/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_apply_adam_d.h: one Adam step (TensorFlow's ApplyAdam) on var, m and v,
 * written to varOut, mOut and vOut, with every hyperparameter given as a one-element tensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_D_H_
#define CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every tensor has var's dtype (FLOAT, FLOAT16 or BFLOAT16); beta1Power and beta2Power are this
 * step's powers. The outputs may be the inputs' own memory (an in-place step); useLocking does not
 * change the result. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyAdamDGetWorkspaceSize(
    const aclTensor *var, const aclTensor *m, const aclTensor *v, const aclTensor *beta1Power,
    const aclTensor *beta2Power, const aclTensor *lr, const aclTensor *beta1, const aclTensor *beta2,
    const aclTensor *epsilon, const aclTensor *grad, bool useLocking, bool useNesterov, aclTensor *varOut,
    aclTensor *mOut, aclTensor *vOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyAdamD(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_D_H_ */
