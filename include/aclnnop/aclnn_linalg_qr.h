/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_linalg_qr.h: the QR decomposition of each matrix of a batch (torch.linalg.qr).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LINALG_QR_H_
#define CANOPY_ACLNNOP_ACLNN_LINALG_QR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self [..., m, n]; mode 0 reduced (Q [..., m, k], R [..., k, n]), 1 complete (Q [..., m, m], R [..., m, n]), 2 R only
 * (Q [0]). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnLinalgQrGetWorkspaceSize(const aclTensor *self, int64_t mode, aclTensor *Q,
                                                              aclTensor *R, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLinalgQr(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LINALG_QR_H_ */
