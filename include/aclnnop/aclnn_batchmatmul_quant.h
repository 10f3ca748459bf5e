/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_batchmatmul_quant.h: a FLOAT16 product quantised to INT8,
 * out = quant(x1 @ x2 + bias), with the scale and offset packed in quantParam
 * (aclnnTransQuantParam's words).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_BATCHMATMUL_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_BATCHMATMUL_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x1, x2: FLOAT16, of one rank (2-6), each transposed where its flag says.
 * quantParam: UINT64, [1] or [n rounded up to a multiple of 16]. bias: FLOAT16 [n] or null.
 * out: INT8 [..., m, n]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchMatmulQuantGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *quantParam, const aclTensor *bias, bool transposeX1,
    bool transposeX2, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchMatmulQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_BATCHMATMUL_QUANT_H_ */
