/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_isin_tensor_scalar.h: torch.isin with one side a scalar.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ISIN_TENSOR_SCALAR_H_
#define CANOPY_ACLNNOP_ACLNN_ISIN_TENSOR_SCALAR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out (BOOL, element's shape) is true where element equals testElement (invert: differs). assumeUnique changes nothing.
 */
ACL_FUNC_VISIBILITY aclnnStatus aclnnIsInTensorScalarGetWorkspaceSize(const aclTensor *element,
                                                                      const aclScalar *testElement, bool assumeUnique,
                                                                      bool invert, aclTensor *out,
                                                                      uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIsInTensorScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ISIN_TENSOR_SCALAR_H_ */
