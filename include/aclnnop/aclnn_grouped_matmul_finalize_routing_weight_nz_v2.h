/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz_v2.h:
 * aclnnGroupedMatmulFinalizeRoutingWeightNz with int4 weights (eight to an INT32,
 * as aclnnGroupedMatmulFinalizeRoutingV2 takes them), an offset and a tuning hint.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_WEIGHT_NZ_V2_H_
#define CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_WEIGHT_NZ_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x2 INT8: as aclnnGroupedMatmulFinalizeRoutingWeightNz (offsetOptional not used). x2
 * INT32 [e, k, n / 8]: as aclnnGroupedMatmulFinalizeRoutingV2 (pertokenScaleOptional
 * and bias required). The antiquant tensors are not used; tuningConfigOptional's first
 * value (the expected rows per expert, in [0, m]) is a performance hint. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulFinalizeRoutingWeightNzV2GetWorkspaceSize(
    const aclTensor *x1, aclTensor *x2, const aclTensor *scale, const aclTensor *bias, const aclTensor *offsetOptional,
    const aclTensor *antiquantScaleOptional, const aclTensor *antiquantOffsetOptional,
    const aclTensor *pertokenScaleOptional, const aclTensor *groupList, const aclTensor *sharedInput,
    const aclTensor *logit, const aclTensor *rowIndex, int64_t dtype, float sharedInputWeight,
    int64_t sharedInputOffset, bool transposeX1, bool transposeX2, int64_t groupListType,
    const aclIntArray *tuningConfigOptional, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulFinalizeRoutingWeightNzV2(void *workspace, uint64_t workspaceSize,
                                                                            aclOpExecutor *executor,
                                                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_FINALIZE_ROUTING_WEIGHT_NZ_V2_H_ */
