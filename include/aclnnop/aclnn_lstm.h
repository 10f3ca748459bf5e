/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_lstm.h: a multi-layer, optionally bidirectional LSTM over a whole sequence (PyTorch's
 * weight layout and gate order), fixed-length or packed by batchSizes, with the per-step gate activations
 * and states for the backward pass when train is true.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LSTM_H_
#define CANOPY_ACLNNOP_ACLNN_LSTM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLSTMGetWorkspaceSize(
    const aclTensor *input, const aclTensorList *params, const aclTensorList *hx, const aclTensor *batchSizes,
    bool hasBias, int64_t numLayers, double dropout, bool train, bool bidirectional, bool batchFirst, aclTensor *output,
    aclTensor *hy, aclTensor *cy, aclTensorList *iOut, aclTensorList *jOut, aclTensorList *fOut, aclTensorList *oOut,
    aclTensorList *hOut, aclTensorList *cOut, aclTensorList *tanhCOut, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLSTM(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LSTM_H_ */
