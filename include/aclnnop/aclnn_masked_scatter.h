/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_masked_scatter.h: selfRef's elements where mask is true replaced by source's, in row-major order.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MASKED_SCATTER_H_
#define CANOPY_ACLNNOP_ACLNN_MASKED_SCATTER_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMaskedScatterGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
                                                                          const aclTensor *source,
                                                                          uint64_t *workspaceSize,
                                                                          aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMaskedScatter(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MASKED_SCATTER_H_ */
