/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_logdet.h: the log of each square matrix's determinant (NaN for a negative one).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LOGDET_H_
#define CANOPY_ACLNNOP_ACLNN_LOGDET_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self [..., n, n]: FLOAT, DOUBLE, COMPLEX64 or COMPLEX128; the outputs have the batch shape [...]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnLogdetGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLogdet(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LOGDET_H_ */
