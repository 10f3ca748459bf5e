/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_isin.h: torch.isin with one side a scalar.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ISIN_H_
#define CANOPY_ACLNNOP_ACLNN_ISIN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* element is a scalar; out is a BOOL scalar tensor (rank 0), true when some element of testElements equals it (invert:
 * none does). assumeUnique changes nothing. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnIsInScalarTensorGetWorkspaceSize(const aclScalar *element,
                                                                      const aclTensor *testElements, bool assumeUnique,
                                                                      bool invert, aclTensor *out,
                                                                      uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIsInScalarTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ISIN_H_ */
