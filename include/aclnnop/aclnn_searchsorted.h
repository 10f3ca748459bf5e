/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_searchsorted.h: torch.searchsorted: where each value of self (SearchSorteds: one scalar) would
 * be inserted into its row of sortedSequence to keep it sorted.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SEARCHSORTED_H_
#define CANOPY_ACLNNOP_ACLNN_SEARCHSORTED_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSearchSortedGetWorkspaceSize(const aclTensor *sortedSequence,
                                                                  const aclTensor *self, bool outInt32, bool right,
                                                                  const aclTensor *sorter, aclTensor *out,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSearchSorted(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSearchSortedsGetWorkspaceSize(const aclTensor *sortedSequence,
                                                                   const aclScalar *self, const bool outInt32,
                                                                   const bool right, const aclTensor *sorter,
                                                                   aclTensor *out, uint64_t *workspaceSize,
                                                                   aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSearchSorteds(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SEARCHSORTED_H_ */
