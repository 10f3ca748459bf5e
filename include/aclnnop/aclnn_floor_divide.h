/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_floor_divide.h: aclnnFloorDivide, aclnnInplaceFloorDivide, aclnnFloorDivides and
 * aclnnInplaceFloorDivides. Every operator has two phases: aclnnXxxGetWorkspaceSize validates the arguments and builds
 * an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FLOOR_DIVIDE_H_
#define CANOPY_ACLNNOP_ACLNN_FLOOR_DIVIDE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnFloorDivideGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                                 aclTensor *out, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFloorDivide(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceFloorDivideGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other,
                                                                        uint64_t *workspaceSize,
                                                                        aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceFloorDivide(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFloorDividesGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
                                                                  aclTensor *out, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFloorDivides(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceFloorDividesGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other,
                                                                         uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceFloorDivides(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FLOOR_DIVIDE_H_ */
