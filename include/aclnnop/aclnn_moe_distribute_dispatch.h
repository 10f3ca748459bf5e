/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_moe_distribute_dispatch.h: aclnnMoeDistributeDispatch, the
 * rows of x sent to the ranks of their experts (expertIds) over an HCCL
 * communicator named by groupEp (the text HcclGetCommName gives), optionally
 * quantised to INT8 per row; the counterpart of aclnnMoeDistributeCombine.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MOE_DISTRIBUTE_DISPATCH_H_
#define CANOPY_ACLNNOP_ACLNN_MOE_DISTRIBUTE_DISPATCH_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeDistributeDispatchGetWorkspaceSize(
    const aclTensor *x, const aclTensor *expertIds, const aclTensor *scales, const aclTensor *xActiveMask,
    const aclTensor *expertScales, const char *groupEp, int64_t epWorldSize, int64_t epRankId, int64_t moeExpertNum,
    const char *groupTp, int64_t tpWorldSize, int64_t tpRankId, int64_t expertShardType, int64_t sharedExpertNum,
    int64_t sharedExpertRankNum, int64_t quantMode, int64_t globalBs, int64_t expertTokenNumsType, aclTensor *expandX,
    aclTensor *dynamicScales, aclTensor *expandIdx, aclTensor *expertTokenNums, aclTensor *epRecvCounts,
    aclTensor *tpRecvCounts, aclTensor *expandScales, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeDistributeDispatch(void *workspace, uint64_t workspaceSize,
                                                           aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MOE_DISTRIBUTE_DISPATCH_H_ */
