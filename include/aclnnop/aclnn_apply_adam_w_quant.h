/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_apply_adam_w_quant.h: one AdamW step in place with 8-bit blockwise
 * quantised optimiser states (mRef, vRef index qmapM, qmapV; one absmax per block).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_W_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_W_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* varRef, grad: FLOAT, FLOAT16 or BFLOAT16 (one dtype); mRef, vRef: UINT8 of varRef's shape;
 * qmapM, qmapV: FLOAT [256]; absmaxMRef, absmaxVRef: FLOAT, ceil(varRef's size / blockSize)
 * elements; step: INT64 [1]; blockSize must be 256; quantModeOptional is reserved. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyAdamWQuantGetWorkspaceSize(
    aclTensor *varRef, const aclTensor *grad, aclTensor *mRef, aclTensor *vRef, const aclTensor *qmapM,
    const aclTensor *qmapV, aclTensor *absmaxMRef, aclTensor *absmaxVRef, const aclTensor *step, double lr,
    double beta1, double beta2, double weightDecay, double eps, double gnormScale, char *quantModeOptional,
    int64_t blockSize, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyAdamWQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_APPLY_ADAM_W_QUANT_H_ */
