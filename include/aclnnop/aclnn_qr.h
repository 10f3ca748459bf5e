/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_qr.h: the QR decomposition of each matrix of a batch (torch.qr).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_QR_H_
#define CANOPY_ACLNNOP_ACLNN_QR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self [..., m, n]; some: Q [..., m, k] and R [..., k, n], k = min(m, n); otherwise Q [..., m, m] and R [..., m, n]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnQrGetWorkspaceSize(const aclTensor *self, bool some, aclTensor *Q, aclTensor *R,
                                                        uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQr(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_QR_H_ */
