/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_mean.h: aclnnMean and aclnnMeanV2, reductions over a list of dimensions.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MEAN_H_
#define CANOPY_ACLNNOP_ACLNN_MEAN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = the mean of self over dim (negative dims count from the end; an empty list is every
 * dimension), converted to dtype; keepDim keeps the reduced dimensions with extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
                                                          aclDataType dtype, aclTensor *out, uint64_t *workspaceSize,
                                                          aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMean(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

/* ONNX ReduceMean: out (self's dtype) = the mean of self over dim; an empty dim
 * is every dimension, or with noopWithEmptyAxes a copy of self. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMeanV2GetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
                                                            bool noopWithEmptyAxes, aclTensor *out,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMeanV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MEAN_H_ */
