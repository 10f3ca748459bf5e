/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_prod.h: aclnnProd and aclnnProdDim, the product of every element or along one dimension.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_PROD_H_
#define CANOPY_ACLNNOP_ACLNN_PROD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = the product of every element of self, in dtype (which out must hold); out holds one element.
 * An empty self gives 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor *self, const aclDataType dtype,
                                                          aclTensor *out, uint64_t *workspaceSize,
                                                          aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnProd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

/* out = the product of self along dim (negative dims count from the end), in dtype (which out must
 * hold); keepDim keeps the dimension with extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepDim,
                                                             const aclDataType dtype, aclTensor *out,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnProdDim(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_PROD_H_ */
