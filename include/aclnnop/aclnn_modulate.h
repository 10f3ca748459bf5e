/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_modulate.h: adaptive scale and shift of a [B, L, D] feature tensor
 * (DiT's modulate): out = self * (1 + scaleOptional) + shiftOptional, the two
 * [B, 1, D] or [B, D]. Atlas A2: FLOAT, FLOAT16, BFLOAT16, all of self's dtype.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MODULATE_H_
#define CANOPY_ACLNNOP_ACLNN_MODULATE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnModulateGetWorkspaceSize(const aclTensor *self, const aclTensor *scaleOptional,
                                                              const aclTensor *shiftOptional, aclTensor *out,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnModulate(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MODULATE_H_ */
