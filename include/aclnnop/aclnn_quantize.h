/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_quantize.h: aclnnQuantize
 * (per-tensor or per-channel quantisation with zero points, as
 * torch.quantize_per_channel).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_QUANTIZE_H_
#define CANOPY_ACLNNOP_ACLNN_QUANTIZE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantizeGetWorkspaceSize(const aclTensor *x, const aclTensor *scales,
                                                              const aclTensor *zeroPoints, aclDataType dtype,
                                                              int32_t axis, aclTensor *out, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantize(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_QUANTIZE_H_ */
