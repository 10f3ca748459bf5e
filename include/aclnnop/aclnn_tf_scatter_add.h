/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_tf_scatter_add.h: varRef += updates scattered by indices, in place: tf.scatter_nd_add where
 * indices' last extent K addresses varRef's first K dimensions, else tf.scatter_add along dimension 0.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TF_SCATTER_ADD_H_
#define CANOPY_ACLNNOP_ACLNN_TF_SCATTER_ADD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnTfScatterAddGetWorkspaceSize(aclTensor *varRef, const aclTensor *indices,
                                                                  const aclTensor *updates, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTfScatterAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TF_SCATTER_ADD_H_ */
