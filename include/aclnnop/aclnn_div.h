/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_div.h: element-wise true division (Div/Divs) and division with rounding mode (DivMod/DivMods).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DIV_H_
#define CANOPY_ACLNNOP_ACLNN_DIV_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tensor / tensor (broadcast). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

/* Tensor / scalar. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDivs(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

/* In-place forms; result is written to selfRef. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other,
                                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other,
                                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDivs(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

/* Division with rounding: mode 0 = none, 1 = trunc, 2 = floor. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnDivModGetWorkspaceSize(const aclTensor *self, const aclTensor *other, int mode,
                                                            aclTensor *out, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDivMod(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnDivModsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, int mode,
                                                             aclTensor *out, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDivMods(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDivModGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, int mode,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDivMod(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDivModsGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other,
                                                                    int mode, uint64_t *workspaceSize,
                                                                    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDivMods(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DIV_H_ */
