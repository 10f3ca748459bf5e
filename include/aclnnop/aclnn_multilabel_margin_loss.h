/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_multilabel_margin_loss.h: the multi-class multi-label hinge loss of self's scores against
 * target's class lists (torch.nn.MultiLabelMarginLoss).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MULTILABEL_MARGIN_LOSS_H_
#define CANOPY_ACLNNOP_ACLNN_MULTILABEL_MARGIN_LOSS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMultilabelMarginLossGetWorkspaceSize(const aclTensor *self,
                                                                          const aclTensor *target, int64_t reduction,
                                                                          aclTensor *out, aclTensor *isTarget,
                                                                          uint64_t *workspaceSize,
                                                                          aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMultilabelMarginLoss(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MULTILABEL_MARGIN_LOSS_H_ */
