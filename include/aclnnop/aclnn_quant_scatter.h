/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_quant_scatter.h: updates quantised to INT8 along their last axis (updates / quantScales +
 * quantZeroPoints, rounded half to even), then written in place into selfRef as slabs along axis from the
 * offsets indices gives (the slab write of aclnnInplaceScatterUpdate).
 * A2 dtypes: selfRef INT8; indices INT32, INT64; (updates, quantScales, quantZeroPoints) (FLOAT16, FLOAT, INT32)
 * or (BFLOAT16, BFLOAT16, BFLOAT16); quantZeroPoints may be null.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_QUANT_SCATTER_H_
#define CANOPY_ACLNNOP_ACLNN_QUANT_SCATTER_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceQuantScatterGetWorkspaceSize(
    aclTensor *selfRef, const aclTensor *indices, const aclTensor *updates, const aclTensor *quantScales,
    const aclTensor *quantZeroPoints, int64_t axis, int64_t quantAxis, int64_t reduction, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceQuantScatter(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_QUANT_SCATTER_H_ */
