/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_thnn_fused_lstm_cell.h: the pointwise half of an LSTM cell step after its two matmuls: the gates
 * (input, cell candidate, forget, output) activated, the new cell and hidden states, and the activated gates for
 * the backward pass.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_THNN_FUSED_LSTM_CELL_H_
#define CANOPY_ACLNNOP_ACLNN_THNN_FUSED_LSTM_CELL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnThnnFusedLstmCellGetWorkspaceSize(
    const aclTensor *inputGates, const aclTensor *hiddenGates, const aclTensor *cx, const aclTensor *inputBiasOptional,
    const aclTensor *hiddenBiasOptional, aclTensor *hyOut, aclTensor *cyOut, aclTensor *storageOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnThnnFusedLstmCell(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_THNN_FUSED_LSTM_CELL_H_ */
