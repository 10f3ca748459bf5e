/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_precision_compare.h: aclnnPrecisionCompare, whether realdata
 * holds exactly golden's data (FLOAT, FLOAT16, BFLOAT16; the same dtype and
 * shape). out, a 0-d UINT32, receives 0 when every element matches and 503
 * otherwise; with empty tensors nothing is compared and out is left as it is.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_PRECISION_COMPARE_H_
#define CANOPY_ACLNNOP_ACLNN_PRECISION_COMPARE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnPrecisionCompareGetWorkspaceSize(const aclTensor *golden,
                                                                      const aclTensor *realdata, aclTensor *out,
                                                                      uint64_t *workspaceSize,
                                                                      aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnPrecisionCompare(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_PRECISION_COMPARE_H_ */
