/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_kthvalue.h: aclnnKthvalue, the k-th smallest element along one dimension.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_KTHVALUE_H_
#define CANOPY_ACLNNOP_ACLNN_KTHVALUE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* valuesOut (self's dtype) = the k-th smallest element of self along dim (k from 1, ascending order, equal
 * elements by position), indicesOut (INT64) = its index; keepdim keeps dim with extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnKthvalueGetWorkspaceSize(const aclTensor *self, int64_t k, int64_t dim,
                                                              bool keepdim, aclTensor *valuesOut, aclTensor *indicesOut,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnKthvalue(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_KTHVALUE_H_ */
