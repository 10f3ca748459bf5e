/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_quant_matmul.h: aclnnQuantMatmul and aclnnQuantMatmulV2
 * (INT8 x INT8 matmul dequantised to FLOAT16; CANN marks both deprecated in
 * favour of aclnnQuantMatmulV5).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_H_
#define CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulGetWorkspaceSize(const aclTensor *x1, const aclTensor *x2,
                                                                 const aclTensor *bias, float deqScale, aclTensor *out,
                                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulV2GetWorkspaceSize(const aclTensor *x1, const aclTensor *x2,
                                                                   const aclTensor *bias, const aclTensor *deqScale,
                                                                   bool adjX1, bool adjX2, aclTensor *out,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantMatmulV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_QUANT_MATMUL_H_ */
