/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_scatter_list.h: for each tensor b of the list varRef (where maskOptional[b] is 1), the slab
 * updates[b] written along dimension axis - 1 at the offset indice[b] (or the first length rows from a (offset,
 * length) pair), in place.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SCATTER_LIST_H_
#define CANOPY_ACLNNOP_ACLNN_SCATTER_LIST_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterListGetWorkspaceSize(aclTensorList *varRef, const aclTensor *indice,
                                                                 const aclTensor *updates,
                                                                 const aclTensor *maskOptional, char *reduceOptional,
                                                                 int64_t axis, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScatterList(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SCATTER_LIST_H_ */
