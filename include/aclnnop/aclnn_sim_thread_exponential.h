/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_sim_thread_exponential.h: aclnnSimThreadExponential.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SIM_THREAD_EXPONENTIAL_H_
#define CANOPY_ACLNNOP_ACLNN_SIM_THREAD_EXPONENTIAL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSimThreadExponentialGetWorkspaceSize(aclTensor *selfRef, int64_t count,
                                                                          double lambda, int64_t seed, int64_t offset,
                                                                          uint64_t *workspaceSize,
                                                                          aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSimThreadExponential(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SIM_THREAD_EXPONENTIAL_H_ */
