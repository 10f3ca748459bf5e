/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_sleep.h: aclnnSleep, holding its stream for a number of
 * device clock cycles (cycles >= 0). Canopy's device counts 1.65e9 cycles a
 * second, the clock CANN's document reckons with.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SLEEP_H_
#define CANOPY_ACLNNOP_ACLNN_SLEEP_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSleepGetWorkspaceSize(int64_t cycles, uint64_t *workspaceSize,
                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSleep(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SLEEP_H_ */
