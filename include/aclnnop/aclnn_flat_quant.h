/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_flat_quant.h: aclnnFlatQuant
 * (two Kronecker factor products, then per-matrix INT4 quantisation;
 * Atlas A2: x FLOAT16 / BFLOAT16, out INT4 / INT32, quantScale FLOAT).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FLAT_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_FLAT_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnFlatQuantGetWorkspaceSize(const aclTensor *x, const aclTensor *kroneckerP1,
                                                               const aclTensor *kroneckerP2, double clipRatio,
                                                               aclTensor *out, aclTensor *quantScale,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFlatQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FLAT_QUANT_H_ */
